package io.github.distlock.curator;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.RetryOnlyCreates;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A leader's connection drops and returns within its session, and meanwhile its node
 * stopped leading: another node sorts before it (a node numbered below every node made by
 * ZooKeeper's count, which only the queue's read can tell, as no watch of ours fires), or
 * it was deleted. Back in the same session, the leader reads the queue again and, its
 * node no longer first, queues with a new node: revoked is told if the tenure was in
 * doubt, and not told again if the suspension ended it. The leader's connection passes
 * through a relay, so that only it is away while another client changes the queue;
 * sessions last 20 s, so the session outlives the time away. A re-read lost with the
 * connection, whose answer Curator gives only once the connection is back (held back on
 * the client here), is made again rather than left unanswered.
 */
class TenureRecheckTests {

	// The member id every instance of this class takes by default.
	private static final String MEMBER = CuratorLeadership.defaultMemberId("test");

	private static final Duration SESSION = Duration.ofSeconds(20);

	private static final Duration WITHIN = Duration.ofSeconds(10);

	private static final String QUEUE = "/leader/group";

	private static final String BEFORE_ALL = QUEUE + "/latch-0000000000";

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void aTenureInDoubtWhoseNodeIsNotFirstOnTheReconnectionIsRevokedAndQueuesWithANewNode() throws Exception {
		CuratorFramework observer = this.zookeeper.newClient();
		leaveRoomBeforeTheLeader(observer);
		try (TcpRelay relay = new TcpRelay(this.zookeeper.server().getPort())) {
			Member leader = member(relay, ConnectionLossPolicy.LOST);
			long epoch = leader.leadership.awaitLeadership("group").get(10, TimeUnit.SECONDS);
			LockHandle tenure = leader.leadership.tenure("group").orElseThrow();
			List<String> nodes = Faults.children(observer, QUEUE);
			long session = leader.session();

			relay.cut();
			await().atMost(WITHIN).until(() -> leader.states.contains(ConnectionState.SUSPENDED));
			assertThat(tenure.state()).isEqualTo(LockState.IN_DOUBT);
			observer.create().withMode(CreateMode.EPHEMERAL).forPath(BEFORE_ALL);
			relay.restore();

			await().atMost(WITHIN).until(() -> leader.events.size() == 2);
			assertThat(leader.events).containsExactly(new LeadershipGrantedEvent("group", epoch, MEMBER),
					new LeadershipRevokedEvent("group", epoch, MEMBER));
			assertThat(leader.session()).isEqualTo(session);
			assertThat(tenure.state()).isEqualTo(LockState.LOST);
			assertQueuedAgainBehindTheNewNode(observer, nodes);

			observer.delete().forPath(BEFORE_ALL);
			long again = leader.leadership.awaitLeadership("group").get(10, TimeUnit.SECONDS);
			assertThat(again).isGreaterThan(epoch);
			await().atMost(WITHIN).until(() -> leader.events.size() == 3);
			assertThat(leader.events).containsExactly(new LeadershipGrantedEvent("group", epoch, MEMBER),
					new LeadershipRevokedEvent("group", epoch, MEMBER),
					new LeadershipGrantedEvent("group", again, MEMBER));
		}
	}

	@Test
	void anEndedTenureWhoseNodeIsNotFirstOnTheReconnectionQueuesWithANewNodeAndIsNotRevokedAgain() throws Exception {
		CuratorFramework observer = this.zookeeper.newClient();
		leaveRoomBeforeTheLeader(observer);
		try (TcpRelay relay = new TcpRelay(this.zookeeper.server().getPort())) {
			Member leader = member(relay, ConnectionLossPolicy.SUSPENDED);
			long epoch = leader.leadership.awaitLeadership("group").get(10, TimeUnit.SECONDS);
			List<String> nodes = Faults.children(observer, QUEUE);
			long session = leader.session();

			relay.cut();
			await().atMost(WITHIN).until(() -> leader.events.size() == 2);
			observer.create().withMode(CreateMode.EPHEMERAL).forPath(BEFORE_ALL);
			relay.restore();

			await().atMost(WITHIN).until(() -> leader.states.contains(ConnectionState.RECONNECTED));
			assertThat(leader.session()).isEqualTo(session);
			assertQueuedAgainBehindTheNewNode(observer, nodes);
			assertThat(leader.leadership.isLeader("group")).isFalse();

			observer.delete().forPath(BEFORE_ALL);
			long again = leader.leadership.awaitLeadership("group").get(10, TimeUnit.SECONDS);
			assertThat(again).isGreaterThan(epoch);
			await().atMost(WITHIN).until(() -> leader.events.size() == 3);
			assertThat(leader.events).containsExactly(new LeadershipGrantedEvent("group", epoch, MEMBER),
					new LeadershipRevokedEvent("group", epoch, MEMBER),
					new LeadershipGrantedEvent("group", again, MEMBER));
		}
	}

	@Test
	void aTenureInDoubtWhoseNodeIsGoneOnTheReconnectionIsRevokedAndLeadsWithANewNode() throws Exception {
		CuratorFramework observer = this.zookeeper.newClient();
		try (TcpRelay relay = new TcpRelay(this.zookeeper.server().getPort())) {
			Member leader = member(relay, ConnectionLossPolicy.LOST);
			long epoch = leader.leadership.awaitLeadership("group").get(10, TimeUnit.SECONDS);
			LockHandle tenure = leader.leadership.tenure("group").orElseThrow();
			List<String> nodes = Faults.children(observer, QUEUE);
			long session = leader.session();

			relay.cut();
			await().atMost(WITHIN).until(() -> leader.states.contains(ConnectionState.SUSPENDED));
			observer.delete().forPath(QUEUE + "/" + nodes.get(0));
			relay.restore();

			await().atMost(WITHIN).until(() -> leader.events.size() == 3);
			long again = leader.leadership.epoch("group").orElseThrow();
			assertThat(again).isGreaterThan(epoch);
			assertThat(leader.events).containsExactly(new LeadershipGrantedEvent("group", epoch, MEMBER),
					new LeadershipRevokedEvent("group", epoch, MEMBER),
					new LeadershipGrantedEvent("group", again, MEMBER));
			assertThat(leader.session()).isEqualTo(session);
			assertThat(tenure.state()).isEqualTo(LockState.LOST);
			assertThat(Faults.children(observer, QUEUE)).hasSize(1).doesNotContainAnyElementsOf(nodes);
		}
	}

	@Test
	void aReReadLostWithTheConnectionAndAnsweredAfterItsReturnIsMadeAgain() throws Exception {
		AtomicBoolean cutNextRead = new AtomicBoolean();
		TcpRelay.Tap tap = (direction, bytes, length, readNanos, writeNanos) -> {
			if (direction == TcpRelay.Direction.TO_SERVER && readsQueue(bytes, length)
					&& cutNextRead.compareAndSet(true, false)) {
				throw new IllegalStateException("connection cut before the queue's read");
			}
		};
		try (TcpRelay relay = new TcpRelay(this.zookeeper.server().getPort(), () -> tap)) {
			LateAnswers answers = new LateAnswers();
			CuratorFramework client = this.zookeeper.nodes()
				.register(CuratorFrameworkFactory.builder()
					.connectString(relay.getConnectString())
					.namespace(this.zookeeper.options().namespace())
					.sessionTimeoutMs((int) SESSION.toMillis())
					.connectionTimeoutMs(3_000)
					.retryPolicy(new RetryOnlyCreates())
					.build());
			client.start();
			CuratorLocks locks = this.zookeeper.nodes()
				.register(this.zookeeper.options()
					.withConnectionLossPolicy(ConnectionLossPolicy.LOST)
					.createLocks(answers.wrap(client)));
			CuratorLeadership leader = this.zookeeper.nodes().register(new CuratorLeadership(locks));
			RecordedLeadershipEvents events = new RecordedLeadershipEvents();
			leader.addListener(events);
			long epoch = leader.awaitLeadership("group").get(10, TimeUnit.SECONDS);
			LockHandle tenure = leader.tenure("group").orElseThrow();
			long session = client.getZookeeperClient().getZooKeeper().getSessionId();

			// The connection drops; back in the session, the leader reads the queue
			// again, and the connection drops with that read: its loss is held back.
			// Back again, the next read finds the node first.
			answers.holdLosses = true;
			cutNextRead.set(true);
			relay.dropConnections();
			await().atMost(WITHIN).until(() -> answers.held.size() == 1 && leader.isLeader("group"));
			answers.holdLosses = false;
			assertThat(cutNextRead).isFalse();
			assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).isEqualTo(session);

			// The lost read's answer comes now, with the connection back: read again.
			int reads = answers.reads.get();
			answers.deliverHeld();
			await().atMost(WITHIN).until(() -> answers.reads.get() == reads + 1);
			await().atMost(WITHIN).until(() -> leader.isLeader("group"));
			assertThat(leader.epoch("group")).hasValue(epoch);
			assertThat(tenure.state()).isEqualTo(LockState.HELD);
			assertThat(events).containsExactly(new LeadershipGrantedEvent("group", epoch, MEMBER));
			tenure.close();
		}
	}

	/** Whether a chunk sent to the server holds a read of the queue's children. */
	private boolean readsQueue(byte[] bytes, int length) {
		ByteBuffer buffer = ByteBuffer.wrap(bytes, 0, length);
		String queue = "/" + this.zookeeper.options().namespace() + QUEUE;
		while (buffer.remaining() >= 16) {
			int start = buffer.position();
			int frame = buffer.getInt();
			buffer.getInt();
			int type = buffer.getInt();
			if ((type == ZooDefs.OpCode.getChildren || type == ZooDefs.OpCode.getChildren2)
					&& buffer.remaining() >= 4) {
				int size = buffer.getInt();
				if (size == queue.length() && buffer.remaining() >= size) {
					byte[] path = new byte[size];
					buffer.get(path);
					if (queue.equals(new String(path, StandardCharsets.UTF_8))) {
						return true;
					}
				}
			}
			if (frame <= 0 || start + 4 + frame > length) {
				return false;
			}
			buffer.position(start + 4 + frame);
		}
		return false;
	}

	/**
	 * Move the queue's count of child changes on, so that the leader's node is numbered
	 * above the node made later to sort first.
	 */
	private static void leaveRoomBeforeTheLeader(CuratorFramework observer) throws Exception {
		observer.create().creatingParentsIfNeeded().forPath(QUEUE + "/room");
		observer.delete().forPath(QUEUE + "/room");
	}

	/** The old node is deleted, and a new one queues behind the node that sorts first. */
	private static void assertQueuedAgainBehindTheNewNode(CuratorFramework observer, List<String> nodes) {
		assertThat(nodes).hasSize(1);
		await().atMost(WITHIN).until(() -> {
			List<String> now = Faults.children(observer, QUEUE);
			return now.size() == 2 && !now.contains(nodes.get(0));
		});
	}

	private Member member(TcpRelay relay, ConnectionLossPolicy policy) {
		CuratorFramework client = this.zookeeper.nodes()
			.register(this.zookeeper.options()
				.withSessionTimeout(SESSION)
				.withConnectionLossPolicy(policy)
				.startClient(relay.getConnectString()));
		Member member = new Member(client);
		client.getConnectionStateListenable().addListener((c, state) -> member.states.add(state));
		CuratorLocks locks = this.zookeeper.nodes()
			.register(this.zookeeper.options().withConnectionLossPolicy(policy).createLocks(client));
		member.leadership = this.zookeeper.nodes().register(new CuratorLeadership(locks));
		member.leadership.addListener(member.events);
		return member;
	}

	private static final class Member {

		final CuratorFramework client;

		final Set<ConnectionState> states = ConcurrentHashMap.newKeySet();

		final RecordedLeadershipEvents events = new RecordedLeadershipEvents();

		CuratorLeadership leadership;

		Member(CuratorFramework client) {
			this.client = client;
		}

		long session() throws Exception {
			return this.client.getZookeeperClient().getZooKeeper().getSessionId();
		}

	}

}
