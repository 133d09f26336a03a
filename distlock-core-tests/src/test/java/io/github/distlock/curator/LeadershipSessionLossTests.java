package io.github.distlock.curator;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockParticipant;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A member whose client gave up its session while the server still keeps it (as Curator
 * does once the connection stayed lost past the session timeout; a restarted server keeps
 * its sessions one more session timeout) stays in the election: its node of the old
 * session is deleted, as {@code LeaderLatch}'s reset does, and it queues again in its new
 * session at once, rather than when the server expires the old one. Sessions here last 20
 * s on the server, so anything done within 10 s was not done by the expiry.
 */
class LeadershipSessionLossTests {

	private static final Duration SESSION = Duration.ofSeconds(20);

	private static final Duration WITHIN = Duration.ofSeconds(10);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final Map<CuratorLeadership, CuratorFramework> clients = new HashMap<>();

	@Test
	void aFollowerWhoseClientGaveUpItsSessionQueuesAgainInItsNewSession() throws Exception {
		CuratorLeadership leader = member();
		CuratorLeadership follower = member();
		leader.join("group");
		await().atMost(WITHIN).until(() -> leader.isLeader("group"));
		follower.join("group");
		await().atMost(WITHIN).until(() -> participants(leader).size() == 2);
		long oldSession = session(follower);
		Faults.expireSession(client(follower));
		await().atMost(WITHIN)
			.until(() -> session(follower) != oldSession && client(follower).getZookeeperClient().isConnected());
		await().atMost(WITHIN)
			.until(() -> participants(leader).stream()
				.map(LockParticipant::session)
				.toList()
				.equals(List.of(session(leader), session(follower))));
		assertThat(leader.isLeader("group")).isTrue();
	}

	@Test
	void aLeaderWhoseClientGaveUpItsSessionDeletesItsOldNodeSoTheGroupGetsALeader() throws Exception {
		CuratorLeadership leader = member();
		CuratorLeadership follower = member();
		leader.join("group");
		await().atMost(WITHIN).until(() -> leader.isLeader("group"));
		follower.join("group");
		await().atMost(WITHIN).until(() -> participants(leader).size() == 2);
		long oldSession = session(leader);
		Faults.expireSession(client(leader));
		await().atMost(WITHIN).until(() -> follower.isLeader("group"));
		await().atMost(WITHIN)
			.until(() -> participants(follower).stream()
				.map(LockParticipant::session)
				.toList()
				.equals(List.of(session(follower), session(leader))));
		assertThat(session(leader)).isNotEqualTo(oldSession);
	}

	private CuratorLeadership member() throws Exception {
		CuratorLocks locks = this.zookeeper.nodes()
			.node(this.zookeeper.connectString(), this.zookeeper.options().withSessionTimeout(SESSION));
		await().atMost(WITHIN).until(() -> locks.client().getZookeeperClient().isConnected());
		assertThat(locks.client().getZookeeperClient().getZooKeeper().getSessionTimeout())
			.isGreaterThanOrEqualTo((int) SESSION.toMillis());
		CuratorLeadership member = this.zookeeper.nodes().register(new CuratorLeadership(locks));
		this.clients.put(member, locks.client());
		return member;
	}

	private CuratorFramework client(CuratorLeadership member) {
		return this.clients.get(member);
	}

	private long session(CuratorLeadership member) {
		try {
			return client(member).getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static List<LockParticipant> participants(CuratorLeadership member) {
		return member.inspect("group").participants();
	}

}
