package io.github.distlock.actuate;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.curator.CuratorLeadership;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link LeadershipMetrics} against a real ZooKeeper server: the seconds without a
 * leader, the fail-over and hand-off timers, recorded from what the members see.
 */
class LeadershipMetricsTests {

	private static final Duration WITHIN = Duration.ofSeconds(30);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	@Test
	void aGroupLeftWithoutLeaderCountsItsSecondsAndTheNextLeaderEndsTheFailOver() throws Exception {
		CuratorLeadership a = member("a");
		a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		CuratorLeadership observer = member("observer");
		observer.observe("jobs");
		LeadershipMetrics metrics = bind(observer);
		await().atMost(WITHIN).until(() -> observer.observed("jobs").isPresent());
		assertThat(leaderless("jobs").value()).isZero();

		a.leave("jobs").get(20, TimeUnit.SECONDS);
		await().atMost(WITHIN).until(() -> leaderless("jobs").value() > 0.2);
		a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);

		await().atMost(WITHIN).until(() -> failover("jobs") != null && failover("jobs").count() == 1);
		assertThat(failover("jobs").totalTime(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(200);
		await().atMost(WITHIN).until(() -> leaderless("jobs").value() == 0);
		assertThat(metrics).isNotNull();
	}

	@Test
	void aLeaderWhoseSessionEndsIsReplacedAndEveryMemberSeesTheFailOver() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		CuratorLeadership a = this.zookeeper.nodes().register(new CuratorLeadership(locks, "a"));
		a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		CuratorLeadership b = member("b");
		b.join("jobs");
		await().atMost(WITHIN).ignoreExceptions().until(() -> b.inspect("jobs").memberIds().equals(List.of("a", "b")));
		bind(b);
		await().atMost(WITHIN).until(() -> b.observed("jobs").isPresent());
		assertThat(b.observedGroups()).containsExactly("jobs");

		Faults.killSession(locks.client());

		b.awaitLeadership("jobs").get(30, TimeUnit.SECONDS);
		await().atMost(WITHIN).until(() -> failover("jobs") != null && failover("jobs").count() == 1);
		assertThat(leaderless("jobs").value()).isZero();
	}

	@Test
	void aTransferIsTimedByTheLeaderThatHandsOff() throws Exception {
		CuratorLeadership a = member("a");
		a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		CuratorLeadership b = member("b");
		b.join("jobs");
		await().atMost(WITHIN).ignoreExceptions().until(() -> a.inspect("jobs").memberIds().equals(List.of("a", "b")));
		bind(a);

		long epoch = a.transferTo("jobs", "b").get(20, TimeUnit.SECONDS);
		assertThat(epoch).isPositive();

		await().atMost(WITHIN)
			.until(() -> this.registry.find("distlock.leadership.handoff")
				.tags("group", "jobs", "outcome", "done")
				.timer() != null);
		Timer handOff = this.registry.find("distlock.leadership.handoff")
			.tags("group", "jobs", "outcome", "done")
			.timer();
		assertThat(handOff.count()).isOne();
		assertThat(handOff.totalTime(TimeUnit.NANOSECONDS)).isPositive();
	}

	private CuratorLeadership member(String id) {
		return this.zookeeper.nodes().register(new CuratorLeadership(this.zookeeper.newNode(), id));
	}

	private LeadershipMetrics bind(CuratorLeadership leadership) {
		LeadershipMetrics metrics = new LeadershipMetrics(this.registry, leadership);
		leadership.addListener(metrics);
		metrics.bindGroups();
		return metrics;
	}

	private Gauge leaderless(String group) {
		return this.registry.get("distlock.leadership.leaderless").tag("group", group).gauge();
	}

	private Timer failover(String group) {
		return this.registry.find("distlock.leadership.failover").tag("group", group).timer();
	}

}
