package io.github.distlock.curator;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LeaderChangedEvent;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.core.ObservedLeader;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link CuratorLeadership#observe}: an instance that does not join a group follows who
 * leads it, a raw {@code LeaderLatch} or a distlock member, from the events of a watch on
 * the group's node.
 */
class LeadershipObserverTests {

	private static final Duration WITHIN = Duration.ofSeconds(20);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final List<LeaderChangedEvent> changes = new CopyOnWriteArrayList<>();

	@Test
	void anObserverFollowsEveryLeaderOfAGroupItDoesNotJoin() throws Exception {
		CuratorLeadership observer = observer();
		assertThat(observer.observe("jobs")).isEmpty();
		assertThat(observer.observedGroups()).containsExactly("jobs");

		LeaderLatch raw = new LeaderLatch(this.zookeeper.newClient(), "/leader/jobs", "raw");
		raw.start();
		assertThat(raw.await(20, TimeUnit.SECONDS)).isTrue();
		await().atMost(WITHIN).until(() -> this.changes.size() == 1);
		ObservedLeader first = this.changes.get(0).leader();
		assertThat(first).isNotNull();
		assertThat(first.memberId()).isEqualTo("raw");
		assertThat(this.changes.get(0).previous()).isNull();

		CuratorLeadership member = this.zookeeper.nodes()
			.register(new CuratorLeadership(this.zookeeper.newNode(), "member-a"));
		member.join("jobs");
		await().atMost(WITHIN).ignoreExceptions().until(() -> member.inspect("jobs").participants().size() == 2);
		raw.close();
		long epoch = member.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		await().atMost(WITHIN).until(() -> this.changes.size() == 2);
		LeaderChangedEvent second = this.changes.get(1);
		assertThat(second.leader()).isNotNull();
		assertThat(second.leader().memberId()).isEqualTo("member-a");
		assertThat(second.leader().epoch()).isEqualTo(epoch).isGreaterThan(first.epoch());
		assertThat(second.previous()).isEqualTo(first);
		assertThat(observer.observed("jobs")).contains(second.leader());

		member.leave("jobs").get(20, TimeUnit.SECONDS);
		await().atMost(WITHIN).until(() -> this.changes.size() == 3);
		assertThat(this.changes.get(2).leader()).isNull();
		assertThat(this.changes.get(2).previous()).isEqualTo(second.leader());
		assertThat(observer.observed("jobs")).isEmpty();
		// The observer never took part.
		assertThat(observer.groups()).isEmpty();
		assertThat(observer.isLeader("jobs")).isFalse();
	}

	@Test
	void observingAGroupThatHasALeaderReturnsItAndTellsItOnce() throws Exception {
		CuratorLeadership member = this.zookeeper.nodes()
			.register(new CuratorLeadership(this.zookeeper.newNode(), "member-a"));
		long epoch = member.awaitLeadership("reports/daily").get(20, TimeUnit.SECONDS);
		CuratorLeadership observer = observer();
		Instant before = Instant.now();

		ObservedLeader leader = observer.observe("reports/daily").orElseThrow();

		assertThat(leader.group()).isEqualTo("reports/daily");
		assertThat(leader.memberId()).isEqualTo("member-a");
		assertThat(leader.epoch()).isEqualTo(epoch);
		assertThat(leader.since()).isAfterOrEqualTo(before);
		assertThat(observer.observe("reports/daily")).contains(leader);
		await().atMost(WITHIN).until(() -> this.changes.size() == 1);
		assertThat(this.changes).containsExactly(new LeaderChangedEvent("reports/daily", leader, null));
		// A relinquish with nobody else queued: the same member leads with a new epoch.
		member.relinquish("reports/daily");
		long again = member.awaitLeadership("reports/daily").get(20, TimeUnit.SECONDS);
		await().atMost(WITHIN)
			.until(() -> observer.observed("reports/daily").map(ObservedLeader::epoch).orElse(0L) == again);
		assertThat(this.changes).extracting(LeaderChangedEvent::leader)
			.last()
			.extracting(ObservedLeader::memberId)
			.isEqualTo("member-a");
	}

	private CuratorLeadership observer() {
		CuratorLeadership observer = this.zookeeper.nodes()
			.register(new CuratorLeadership(this.zookeeper.newNode(), "observer"));
		observer.addListener(new LeadershipListener() {

			@Override
			public void leaderChanged(LeaderChangedEvent event) {
				LeadershipObserverTests.this.changes.add(event);
			}

		});
		return observer;
	}

}
