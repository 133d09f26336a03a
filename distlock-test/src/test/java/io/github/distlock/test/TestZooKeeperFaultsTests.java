package io.github.distlock.test;

import java.time.Duration;

import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LockTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Each fault of {@link TestZooKeeper} really happens, on the server and on the node, by
 * the time it returns.
 */
class TestZooKeeperFaultsTests {

	@RegisterExtension
	static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension();

	@Test
	void expireSessionEndsTheSessionOnTheServerAndTheNodeSeesLost(TestZooKeeper server) {
		DistlockNode node = server.newNode();
		LockHandle held = node.getLocks().mutex(LockPath.of("orders", "1")).acquire(Duration.ofSeconds(5));
		long session = node.getSessionId();
		assertThat(server.hasSession(session)).isTrue();
		long expired = server.expireSession(node);
		assertThat(expired).isEqualTo(session);
		assertThat(server.hasSession(session)).isFalse();
		assertThat(node.getConnectionStates()).contains(ConnectionState.LOST);
		assertThat(held.state()).isEqualTo(LockState.LOST);
		// The lock's node died with the session: another node gets the lock at once.
		DistlockNode other = server.newNode();
		try (LockHandle next = other.getLocks().mutex(LockPath.of("orders", "1")).acquire(Duration.ZERO)) {
			assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
		}
		held.close();
	}

	@Test
	void expireSessionLeavesOtherNodesAlone(TestZooKeeper server) {
		DistlockNode victim = server.newNode();
		DistlockNode bystander = server.newNode();
		long bystanderSession = bystander.getSessionId();
		server.expireSession(victim);
		assertThat(server.hasSession(bystanderSession)).isTrue();
		assertThat(bystander.getConnectionStates()).doesNotContain(ConnectionState.SUSPENDED, ConnectionState.LOST);
	}

	@Test
	void cutOffSuspendsTheNodeAndAShortCutKeepsTheSession() {
		// Sessions of 10 s: the cut is short whatever the machine's load does to the
		// steps between the cut and the reconnection.
		try (TestZooKeeper server = TestZooKeeper.start(Duration.ofSeconds(10))) {
			DistlockNode node = server.newNode();
			long session = node.getSessionId();
			server.cutOff(node);
			assertThat(node.isConnected()).isFalse();
			assertThat(node.getConnectionStates()).endsWith(ConnectionState.SUSPENDED);
			assertThat(server.hasSession(session)).isTrue();
			server.reconnect(node);
			assertThat(node.getSessionId()).isEqualTo(session);
			assertThat(node.getConnectionStates()).containsExactly(ConnectionState.CONNECTED, ConnectionState.SUSPENDED,
					ConnectionState.RECONNECTED);
		}
	}

	@Test
	void cutOffForADurationLetsTheNodeBackByItself(TestZooKeeper server) {
		DistlockNode node = server.newNode();
		server.cutOff(node, Duration.ofMillis(300));
		assertThat(node.getConnectionStates()).startsWith(ConnectionState.CONNECTED, ConnectionState.SUSPENDED);
		node.awaitState(0, (state) -> state == ConnectionState.RECONNECTED, "RECONNECTED", Duration.ofSeconds(20));
		assertThat(node.getRelay().isCut()).isFalse();
	}

	@Test
	void cutOffLongerThanTheSessionTimeoutCostsTheSession(TestZooKeeper server) {
		DistlockNode node = server.newNode();
		LockHandle held = node.getLocks().mutex(LockPath.of("orders", "2")).acquire(Duration.ofSeconds(5));
		long session = node.getSessionId();
		server.cutOff(node, server.getSessionTimeout().multipliedBy(2));
		assertThat(held.state()).isEqualTo(LockState.LOST);
		server.awaitConnected(node);
		assertThat(node.getConnectionStates()).containsSubsequence(ConnectionState.SUSPENDED, ConnectionState.LOST,
				ConnectionState.RECONNECTED);
		assertThat(node.getSessionId()).isNotEqualTo(session);
		assertThat(server.hasSession(session)).isFalse();
		held.close();
	}

	@Test
	void stopSuspendsEveryNodeAndRestartReconnectsThem(TestZooKeeper server) {
		DistlockNode first = server.newNode();
		DistlockNode second = server.newNode();
		server.stop();
		assertThat(server.isRunning()).isFalse();
		assertThat(first.isConnected()).isFalse();
		assertThat(second.isConnected()).isFalse();
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> first.getLocks().mutex(LockPath.of("down")).acquire(Duration.ofMillis(200)));
		server.restart();
		assertThat(first.isConnected()).isTrue();
		assertThat(second.isConnected()).isTrue();
		try (LockHandle lock = first.getLocks().mutex(LockPath.of("up")).acquire(Duration.ofSeconds(5))) {
			assertThat(lock.isHeld()).isTrue();
		}
	}

	@Test
	void slowDownDelaysTheNodesRoundTrips(TestZooKeeper server) throws Exception {
		DistlockNode node = server.newNode();
		server.slowDown(node, Duration.ofMillis(100));
		long start = System.nanoTime();
		node.getClient().checkExists().forPath("/");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
		server.slowDown(node, Duration.ZERO);
		assertThat(node.getRelay().getLatency()).isZero();
	}

}
