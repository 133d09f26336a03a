package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Transitions of a leader's tenure that no connection fault forces: a leader leaving
 * while work runs under its tenure drains it before its node goes (until the last handle
 * is closed, or the drain limit is over), and a leader whose node is deleted by another
 * client queues anew and leads again with a new epoch.
 */
class TenureTransitionsTests {

	// The member id every instance of this class takes by default.
	private static final String MEMBER = CuratorLeadership.defaultMemberId("test");

	private static final Duration WITHIN = Duration.ofSeconds(10);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void aLeaderLeavingWithOpenTenureHandlesDrainsThemBeforeItsNodeGoes() throws Exception {
		CuratorLeadership first = member();
		long epoch = first.awaitLeadership("group").get(10, TimeUnit.SECONDS);
		LockHandle tenure = first.tenure("group").orElseThrow();
		CuratorLeadership second = member();
		CompletableFuture<Long> next = second.awaitLeadership("group");
		await().atMost(WITHIN).until(() -> first.inspect("group").participants().size() == 2);

		CompletableFuture<Void> leaving = first.leave("group");
		// Draining: no new work starts, the work running keeps its tenure, and the node
		// still leads, so that nobody else leads meanwhile.
		assertThat(first.isLeader("group")).isFalse();
		assertThat(first.tenure("group")).isEmpty();
		assertThat(tenure.state()).isEqualTo(LockState.HELD);
		assertThat(leaving).isNotDone();
		assertThat(next).isNotDone();
		assertThat(first.inspect("group").participants()).hasSize(2);

		tenure.close();
		leaving.get(10, TimeUnit.SECONDS);
		assertThat(next.get(10, TimeUnit.SECONDS)).isGreaterThan(epoch);
		assertThat(tenure.state()).isEqualTo(LockState.LOST);
	}

	@Test
	void aLeavingLeaderWhoseHandleStaysOpenDeletesItsNodeOnceTheDrainLimitIsOver() throws Exception {
		Duration limit = Duration.ofSeconds(2);
		CuratorLeadership first = member(limit);
		RecordedLeadershipEvents events = new RecordedLeadershipEvents();
		first.addListener(events);
		long epoch = first.awaitLeadership("group").get(10, TimeUnit.SECONDS);
		LockHandle tenure = first.tenure("group").orElseThrow();
		CuratorLeadership second = member();
		CompletableFuture<Long> next = second.awaitLeadership("group");
		await().atMost(WITHIN).until(() -> first.inspect("group").participants().size() == 2);

		long start = System.nanoTime();
		CompletableFuture<Void> leaving = first.leave("group");
		assertThat(tenure.state()).isEqualTo(LockState.HELD);
		// The handle is never closed: the limit alone ends the drain.
		leaving.get(10, TimeUnit.SECONDS);
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(limit);
		assertThat(next.get(10, TimeUnit.SECONDS)).isGreaterThan(epoch);
		assertThat(tenure.state()).isEqualTo(LockState.LOST);
		assertThat(first.inspect("group").participants()).hasSize(1);
		await().atMost(WITHIN).until(() -> events.size() == 2);
		assertThat(events).containsExactly(new LeadershipGrantedEvent("group", epoch, MEMBER),
				new LeadershipRevokedEvent("group", epoch, MEMBER));
	}

	@Test
	void aHandleClosedBeforeTheDrainLimitEndsTheDrainAtOnce() throws Exception {
		// A limit no test waits for: only the closed handle can end this drain.
		CuratorLeadership first = member(Duration.ofHours(1));
		long epoch = first.awaitLeadership("group").get(10, TimeUnit.SECONDS);
		LockHandle tenure = first.tenure("group").orElseThrow();
		CuratorLeadership second = member();
		CompletableFuture<Long> next = second.awaitLeadership("group");
		await().atMost(WITHIN).until(() -> first.inspect("group").participants().size() == 2);

		CompletableFuture<Void> leaving = first.leave("group");
		assertThat(leaving).isNotDone();
		tenure.close();
		leaving.get(10, TimeUnit.SECONDS);
		assertThat(next.get(10, TimeUnit.SECONDS)).isGreaterThan(epoch);
		assertThat(first.inspect("group").participants()).hasSize(1);
	}

	@Test
	void aLeaderWhoseNodeIsDeletedQueuesAnewAndLeadsWithANewEpoch() throws Exception {
		CuratorFramework observer = this.zookeeper.newClient();
		CuratorLeadership leader = member();
		RecordedLeadershipEvents events = new RecordedLeadershipEvents();
		leader.addListener(events);
		long epoch = leader.awaitLeadership("group").get(10, TimeUnit.SECONDS);
		LockHandle tenure = leader.tenure("group").orElseThrow();
		List<String> nodes = Faults.children(observer, "/leader/group");
		assertThat(nodes).hasSize(1);
		observer.delete().forPath("/leader/group/" + nodes.get(0));

		await().atMost(WITHIN).until(() -> events.size() == 3);
		long again = leader.epoch("group").orElseThrow();
		assertThat(again).isGreaterThan(epoch);
		assertThat(events).containsExactly(new LeadershipGrantedEvent("group", epoch, MEMBER),
				new LeadershipRevokedEvent("group", epoch, MEMBER), new LeadershipGrantedEvent("group", again, MEMBER));
		assertThat(tenure.state()).isEqualTo(LockState.LOST);
		assertThat(Faults.children(observer, "/leader/group")).hasSize(1).doesNotContainAnyElementsOf(nodes);
	}

	private CuratorLeadership member() {
		return this.zookeeper.nodes().register(new CuratorLeadership(this.zookeeper.newNode()));
	}

	private CuratorLeadership member(Duration drain) {
		return this.zookeeper.nodes().register(new CuratorLeadership(this.zookeeper.newNode(), drain));
	}

}
