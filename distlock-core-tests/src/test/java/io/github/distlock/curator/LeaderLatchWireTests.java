package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipGroup;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * distlock's leader election is Curator's {@code LeaderLatch}, node for node: a raw
 * {@code LeaderLatch} on {@code /leader/<group>} and distlock's participants are one
 * election, in both directions, and distlock's latch nodes look like Curator's.
 */
class LeaderLatchWireTests {

	// The member id every instance of this class takes by default.
	private static final String MEMBER = CuratorLeadership.defaultMemberId("test");

	private static final Duration WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private CuratorLeadership newLeadership() {
		return this.zookeeper.nodes().register(new CuratorLeadership(this.zookeeper.newNode()));
	}

	@Test
	void rawLatchLeadsFirstThenHandsOverToDistlockAndBack() throws Exception {
		CuratorFramework raw = this.zookeeper.newClient();
		LeaderLatch latch = new LeaderLatch(raw, "/leader/wire", "raw-participant");
		latch.start();
		assertThat(latch.await(20, TimeUnit.SECONDS)).isTrue();
		CuratorLeadership distlock = newLeadership();
		distlock.join("wire");
		await().atMost(WAIT).ignoreExceptions().until(() -> distlock.inspect("wire").participants().size() == 2);
		assertThat(distlock.isLeader("wire")).isFalse();
		assertThat(distlock.leader("wire")).contains("raw-participant");
		latch.close();
		long epoch = distlock.awaitLeadership("wire").get(20, TimeUnit.SECONDS);
		assertThat(distlock.isLeader("wire")).isTrue();
		assertThat(distlock.epoch("wire")).hasValue(epoch);
		// A raw latch joining now waits behind distlock, and sees it as the leader.
		LeaderLatch second = new LeaderLatch(raw, "/leader/wire", "raw-second");
		second.start();
		await().atMost(WAIT).until(() -> second.getParticipants().size() == 2);
		assertThat(second.hasLeadership()).isFalse();
		// The participant id a raw latch reads is distlock's member id.
		assertThat(second.getLeader().getId()).isEqualTo(MEMBER);
		distlock.leave("wire").get(20, TimeUnit.SECONDS);
		assertThat(second.await(20, TimeUnit.SECONDS)).isTrue();
		assertThat(distlock.isLeader("wire")).isFalse();
		second.close();
	}

	@Test
	void latchNodesAreCuratorsAndTheEpochIsTheNodesCreatingZxid() throws Exception {
		CuratorLeadership distlock = newLeadership();
		long epoch = distlock.awaitLeadership("shape").get(20, TimeUnit.SECONDS);
		CuratorFramework raw = this.zookeeper.newClient();
		List<String> children = Faults.children(raw, "/leader/shape");
		assertThat(children).hasSize(1);
		String name = children.get(0);
		// Protected mode: _c_<uuid>-latch-<sequence>, as LeaderLatch names its nodes.
		assertThat(name).matches("_c_[0-9a-f-]{36}-latch-\\d{10}");
		Stat stat = raw.checkExists().forPath("/leader/shape/" + name);
		assertThat(stat.getEphemeralOwner()).isNotZero();
		assertThat(epoch).isEqualTo(stat.getCzxid());
		String data = new String(raw.getData().forPath("/leader/shape/" + name), StandardCharsets.UTF_8);
		assertThat(data).isEqualTo(MEMBER);
	}

	@Test
	void rawLatchWaitingBehindDistlockLeadsWhenDistlockRelinquishes() throws Exception {
		CuratorLeadership distlock = newLeadership();
		RecordedLeadershipEvents events = new RecordedLeadershipEvents();
		distlock.addListener(events);
		long first = distlock.awaitLeadership("turns").get(20, TimeUnit.SECONDS);
		LeaderLatch latch = new LeaderLatch(this.zookeeper.newClient(), "/leader/turns", "raw");
		latch.start();
		await().atMost(WAIT).until(() -> latch.getParticipants().size() == 2);
		distlock.relinquish("turns");
		assertThat(latch.await(20, TimeUnit.SECONDS)).isTrue();
		assertThat(distlock.isLeader("turns")).isFalse();
		assertThat(distlock.groups()).containsExactly("turns");
		latch.close();
		long second = distlock.awaitLeadership("turns").get(20, TimeUnit.SECONDS);
		assertThat(second).isGreaterThan(first);
		await().atMost(WAIT).until(() -> events.size() == 3);
		assertThat(events).containsExactly(new LeadershipGrantedEvent("turns", first, MEMBER),
				new LeadershipRevokedEvent("turns", first, MEMBER),
				new LeadershipGrantedEvent("turns", second, MEMBER));
	}

	@Test
	void memberIdsAreTheParticipantIdsBothWays() throws Exception {
		CuratorLeadership distlock = this.zookeeper.nodes()
			.register(new CuratorLeadership(this.zookeeper.newNode(), "billing-7f9c"));
		RecordedLeadershipEvents events = new RecordedLeadershipEvents();
		distlock.addListener(events);
		long epoch = distlock.awaitLeadership("ids").get(20, TimeUnit.SECONDS);
		LeaderLatch latch = new LeaderLatch(this.zookeeper.newClient(), "/leader/ids", "raw-ids");
		latch.start();
		await().atMost(WAIT).until(() -> latch.getParticipants().size() == 2);
		assertThat(latch.getParticipants()).extracting(org.apache.curator.framework.recipes.leader.Participant::getId)
			.containsExactly("billing-7f9c", "raw-ids");
		LeadershipGroup group = distlock.inspect("ids");
		assertThat(group.memberId()).isEqualTo("billing-7f9c");
		assertThat(group.memberIds()).containsExactly("billing-7f9c", "raw-ids");
		assertThat(group.leaderId()).contains("billing-7f9c");
		assertThat(distlock.leader("ids")).contains("billing-7f9c");
		distlock.leave("ids").get(20, TimeUnit.SECONDS);
		assertThat(latch.await(20, TimeUnit.SECONDS)).isTrue();
		assertThat(distlock.inspect("ids").leaderId()).contains("raw-ids");
		await().atMost(WAIT).until(() -> events.size() == 2);
		assertThat(events).containsExactly(new LeadershipGrantedEvent("ids", epoch, "billing-7f9c"),
				new LeadershipRevokedEvent("ids", epoch, "billing-7f9c"));
		latch.close();
	}

	@Test
	void blankMemberIdIsRefused() {
		CuratorLocks locks = this.zookeeper.newNode();
		assertThatIllegalArgumentException().isThrownBy(() -> new CuratorLeadership(locks, " "))
			.withMessageContaining("member id")
			.withMessageContaining("' '");
	}

}
