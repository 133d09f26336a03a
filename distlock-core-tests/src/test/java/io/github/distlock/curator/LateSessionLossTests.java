package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockState;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Curator reports a session's loss on a thread of its own, after the events before it:
 * the loss may come after the client connected in a new session and was granted there.
 * Such a late loss ends what the ended session held, and nothing of the new session.
 */
class LateSessionLossTests {

	// The member id every instance of this class takes by default.
	private static final String MEMBER = CuratorLeadership.defaultMemberId("test");

	private static final Duration WITHIN = Duration.ofSeconds(20);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	/**
	 * The application's client has a listener of its own that holds up Curator's events
	 * from the first about the session's end (Curator calls the listeners of one event in
	 * no fixed order, so it holds up the suspension, which comes before the loss), until
	 * the client is connected in a new session and a lock, a leadership, a waiting
	 * acquisition and a follower are taken there. The loss, told then, ends the hold and
	 * the tenure of the old session only. Under the policy {@code SUSPENDED} the
	 * suspension ends them too, and it reaches the engine late as well when Curator calls
	 * the engine's listener after this one (the order is Curator's).
	 */
	@ParameterizedTest
	@EnumSource(ConnectionLossPolicy.class)
	void aLossToldAfterTheNewSessionConnectedEndsOnlyWhatTheOldSessionHeld(ConnectionLossPolicy policy)
			throws Exception {
		NodeOptions options = this.zookeeper.options().withConnectionLossPolicy(policy);
		CuratorFramework client = this.zookeeper.nodes().register(options.startClient(this.zookeeper.connectString()));
		HeldUpEvents held = HeldUpEvents.on(client, WITHIN.multipliedBy(2));
		CuratorLocks locks = this.zookeeper.nodes().register(options.createLocks(client));
		List<HeldLock> losses = new CopyOnWriteArrayList<>();
		locks.addLossListener(losses::add);
		CuratorLeadership leadership = this.zookeeper.nodes().register(new CuratorLeadership(locks));
		RecordedLeadershipEvents events = new RecordedLeadershipEvents();
		leadership.addListener(events);
		CuratorLocks other = this.zookeeper.newNode();
		CuratorLeadership otherLeadership = this.zookeeper.nodes().register(new CuratorLeadership(other));
		CuratorFramework observer = this.zookeeper.newClient();
		await().atMost(WITHIN).until(() -> client.getZookeeperClient().isConnected());

		// The old session: a hold and a leadership.
		LockHandle old = locks.mutex("old").acquire(WITHIN);
		leadership.join("before");
		await().atMost(WITHIN).until(() -> leadership.isLeader("before"));
		long epochBefore = leadership.epoch("before").getAsLong();
		otherLeadership.join("followed");
		await().atMost(WITHIN).until(() -> otherLeadership.isLeader("followed"));
		LockHandle busy = other.mutex("busy").acquire(WITHIN);
		long oldSession = session(client);

		Faults.killSession(client);
		await().atMost(WITHIN).until(() -> client.getZookeeperClient().isConnected() && session(client) != oldSession);
		assertThat(held.heldUp.get()).isEqualTo(ConnectionState.SUSPENDED);
		assertThat(held.told).doesNotContain(ConnectionState.LOST, ConnectionState.RECONNECTED);
		long newSession = session(client);

		// The new session, before the engine is told the old one ended: a hold, a leader,
		// a waiting acquisition, a follower.
		LockHandle fresh = locks.semaphore("quota", 1).acquire(WITHIN);
		leadership.join("led");
		await().atMost(WITHIN).until(() -> leadership.isLeader("led"));
		long epochLed = leadership.epoch("led").getAsLong();
		CompletableFuture<LockHandle> waiting = locks.mutex("busy").acquireAsync(WITHIN.multipliedBy(2));
		await().atMost(WITHIN)
			.until(() -> ourNode(other.inspect(LockPath.of("busy")).get(0).participants(), newSession) != null);
		String waitingNode = ourNode(other.inspect(LockPath.of("busy")).get(0).participants(), newSession);
		leadership.join("followed");
		await().atMost(WITHIN).until(() -> ourNode(followers(otherLeadership), newSession) != null);
		String followerNode = ourNode(followers(otherLeadership), newSession);
		assertThat(held.told).doesNotContain(ConnectionState.LOST, ConnectionState.RECONNECTED);

		// Curator tells the loss now; once the event after it is told, the engine has
		// handled the loss.
		held.letGo();
		await().atMost(WITHIN).until(() -> held.told.contains(ConnectionState.RECONNECTED));
		assertThat(held.told.indexOf(ConnectionState.LOST)).isLessThan(held.told.indexOf(ConnectionState.RECONNECTED));

		// The hold of the new session holds: its lease node is there, in the new session.
		assertThat(fresh.state()).isEqualTo(LockState.HELD);
		Stat lease = observer.checkExists().forPath(fresh.nodePath().orElseThrow());
		assertThat(lease).isNotNull();
		assertThat(lease.getEphemeralOwner()).isEqualTo(newSession);
		// The hold of the old session was lost, and only it was reported.
		await().atMost(WITHIN).until(() -> !losses.isEmpty());
		assertThat(losses).extracting((lost) -> lost.path().value()).containsExactly("old");
		assertThat(old.state()).isEqualTo(LockState.LOST);

		// The leader of the new session leads on, with the same epoch, never revoked; the
		// leader of the old session was revoked.
		await().atMost(WITHIN).until(() -> events.contains(new LeadershipRevokedEvent("before", epochBefore, MEMBER)));
		await().atMost(WITHIN).until(() -> leadership.isLeader("led"));
		assertThat(leadership.epoch("led").getAsLong()).isEqualTo(epochLed);
		assertThat(events)
			.filteredOn((event) -> event instanceof LeadershipGrantedEvent granted && granted.group().equals("led"))
			.containsExactly(new LeadershipGrantedEvent("led", epochLed, MEMBER));
		assertThat(events)
			.filteredOn((event) -> event instanceof LeadershipRevokedEvent revoked && revoked.group().equals("led"))
			.isEmpty();

		// The follower of the new session keeps its node.
		assertThat(ourNode(followers(otherLeadership), newSession)).isEqualTo(followerNode);

		// The waiting acquisition of the new session kept its node, and is granted it.
		assertThat(waiting).isNotDone();
		busy.close();
		LockHandle waited = waiting.get(WITHIN.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(waited.nodePath().orElseThrow()).endsWith("/" + waitingNode);
		assertThat(waited.state()).isEqualTo(LockState.HELD);
		assertThat(fresh.state()).isEqualTo(LockState.HELD);
		assertThat(losses).hasSize(1);
		waited.close();
		fresh.close();
		old.close();
	}

	/**
	 * A leader's tenure judges its state against the session in use as a lock's hold
	 * does: asked after Curator replaced the session, before the engine is told of any
	 * trouble, its handle answers lost, and the tenure ends then (revoked told once), as
	 * the hold's loss is reported then. The events told later end nothing more.
	 */
	@Test
	void aTenureAskedAfterItsSessionWasReplacedEndsAsAHoldDoes() throws Exception {
		NodeOptions options = this.zookeeper.options().withConnectionLossPolicy(ConnectionLossPolicy.LOST);
		CuratorFramework client = this.zookeeper.nodes().register(options.startClient(this.zookeeper.connectString()));
		// Holds up every event from the first about the session's end; the engine's
		// listener may be called before or after this one for that first event.
		HeldUpEvents held = HeldUpEvents.on(client, WITHIN.multipliedBy(2));
		CuratorLocks locks = this.zookeeper.nodes().register(options.createLocks(client));
		List<HeldLock> losses = new CopyOnWriteArrayList<>();
		locks.addLossListener(losses::add);
		CuratorLeadership leadership = this.zookeeper.nodes().register(new CuratorLeadership(locks));
		RecordedLeadershipEvents events = new RecordedLeadershipEvents();
		leadership.addListener(events);
		await().atMost(WITHIN).until(() -> client.getZookeeperClient().isConnected());
		LockHandle hold = locks.mutex("held").acquire(WITHIN);
		leadership.join("led");
		await().atMost(WITHIN).until(() -> leadership.isLeader("led"));
		long epoch = leadership.epoch("led").getAsLong();
		LockHandle tenure = leadership.tenure("led").orElseThrow();
		long oldSession = session(client);

		Faults.killSession(client);
		await().atMost(WITHIN).until(() -> client.getZookeeperClient().isConnected() && session(client) != oldSession);
		assertThat(held.told).doesNotContain(ConnectionState.LOST, ConnectionState.RECONNECTED);
		assertThat(events).doesNotContain(new LeadershipRevokedEvent("led", epoch, MEMBER));

		// Asked now, both answer lost, and both losses are told before any later event.
		assertThat(hold.state()).isEqualTo(LockState.LOST);
		assertThat(tenure.state()).isEqualTo(LockState.LOST);
		await().atMost(WITHIN).until(() -> events.contains(new LeadershipRevokedEvent("led", epoch, MEMBER)));
		await().atMost(WITHIN).until(() -> !losses.isEmpty());
		assertThat(held.told).doesNotContain(ConnectionState.LOST, ConnectionState.RECONNECTED);

		held.letGo();
		await().atMost(WITHIN).until(() -> held.told.contains(ConnectionState.RECONNECTED));
		// The member queues again in the new session, and leads with a new epoch.
		await().atMost(WITHIN).until(() -> leadership.isLeader("led"));
		assertThat(leadership.epoch("led").getAsLong()).isGreaterThan(epoch);
		assertThat(events).filteredOn((event) -> event instanceof LeadershipRevokedEvent)
			.containsExactly(new LeadershipRevokedEvent("led", epoch, MEMBER));
		assertThat(losses).extracting((lost) -> lost.path().value()).containsExactly("held");
		hold.close();
	}

	private static List<LockParticipant> followers(CuratorLeadership leader) {
		return leader.inspect("followed").participants();
	}

	private static String ourNode(List<LockParticipant> participants, long session) {
		return participants.stream()
			.filter((participant) -> participant.session() == session)
			.map(LockParticipant::name)
			.findFirst()
			.orElse(null);
	}

	private static long session(CuratorFramework client) {
		try {
			return client.getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
