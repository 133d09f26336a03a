package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockParticipant;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.RetryOnlyCreates;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A member's read of the queue fails with the lost connection, and Curator delivers that
 * answer only after the connection is back and the member has read the queue again (an
 * answer Curator gave up on while the connection returned): the member must not stay
 * stalled, or a group whose first node is its node has no leader while every member is
 * connected. The late answer is a real one, held back on the client by a wrapper that
 * passes every request and answer through unchanged.
 */
class LeadershipLateLossTests {

	private static final Duration WITHIN = Duration.ofSeconds(10);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void aLossAnsweredAfterTheReconnectionLeavesNoMemberStalled() throws Exception {
		CuratorLeadership first = member(this.zookeeper.newNode());
		first.join("group");
		await().atMost(WITHIN).until(() -> first.isLeader("group"));
		CuratorLeadership second = member(this.zookeeper.newNode());
		second.join("group");
		await().atMost(WITHIN).until(() -> participants(first).size() == 2);
		try (TcpRelay relay = new TcpRelay(this.zookeeper.server().getPort())) {
			LateAnswers answers = new LateAnswers();
			CuratorFramework client = RelayedClients.start(this.zookeeper, relay, new RetryOnlyCreates());
			CuratorLeadership third = member(this.zookeeper.options().createLocks(answers.wrap(client)));
			third.join("group");
			await().atMost(WITHIN).until(() -> participants(first).size() == 3 && answers.watchesSet.get() == 1);

			// The second member leaves: the third reads the queue, and the read is held
			// in the relay, then lost with the connection.
			relay.pause(TcpRelay.Direction.TO_SERVER);
			int reads = answers.reads.get();
			second.leave("group").get(10, TimeUnit.SECONDS);
			await().atMost(WITHIN).until(() -> answers.reads.get() == reads + 1);
			answers.holdLosses = true;
			relay.dropConnections();
			await().atMost(WITHIN).until(() -> answers.held.size() == 1);
			answers.holdLosses = false;
			relay.resume(TcpRelay.Direction.TO_SERVER);
			// Back in the same session, the member read the queue again and watches the
			// first node: only now does the lost read's answer arrive.
			await().atMost(WITHIN).until(() -> answers.watchesSet.get() == 2);
			answers.deliverHeld();

			first.leave("group").get(10, TimeUnit.SECONDS);
			await().atMost(WITHIN).until(() -> third.isLeader("group"));
			assertThat(participants(third)).hasSize(1);
		}
	}

	private CuratorLeadership member(CuratorLocks locks) {
		this.zookeeper.nodes().register(locks);
		return this.zookeeper.nodes().register(new CuratorLeadership(locks));
	}

	private static List<LockParticipant> participants(CuratorLeadership member) {
		return member.inspect("group").participants();
	}

}
