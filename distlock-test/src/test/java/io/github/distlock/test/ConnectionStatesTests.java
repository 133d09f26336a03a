package io.github.distlock.test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.relay.TcpRelay;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A node's record of connection states is exact whenever the kit began to listen: its
 * first {@code CONNECTED} comes first, once, even when Curator tells it only after the
 * kit listened (the case that made a mark taken after connecting see a {@code CONNECTED}
 * after it).
 */
class ConnectionStatesTests {

	@RegisterExtension
	static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension();

	@Test
	void firstConnectedToldAfterTheKitListensIsRecordedOnceAndFirst(TestZooKeeper server) throws Exception {
		TcpRelay relay = new TcpRelay(server.getPort());
		CuratorFramework client = CuratorFrameworkFactory.newClient(relay.getConnectString(),
				(int) server.getSessionTimeout().toMillis(), 10_000, new RetryOneTime(100));
		CountDownLatch release = new CountDownLatch(1);
		// Curator's event thread is held at the first CONNECTED until the kit listens.
		client.getConnectionStateListenable().addListener((c, state) -> {
			if (state == ConnectionState.CONNECTED) {
				try {
					release.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		});
		client.start();
		try (relay) {
			assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
			CuratorLocks locks = new CuratorLocks(client, Duration.ofSeconds(5), "test");
			try (DistlockNode node = new DistlockNode("late", relay, client, locks, new LockRecorder())) {
				assertThat(node.getConnectionStates()).containsExactly(ConnectionState.CONNECTED);
				int mark = node.stateMark();
				release.countDown();
				// Events are told in order on one thread: once the cut-off's SUSPENDED is
				// recorded, the late CONNECTED has been told too.
				relay.cut();
				node.awaitState(mark, (state) -> state == ConnectionState.SUSPENDED, "SUSPENDED",
						Duration.ofSeconds(20));
				relay.restore();
				node.awaitState(mark, (state) -> state == ConnectionState.RECONNECTED, "RECONNECTED",
						Duration.ofSeconds(20));
				assertThat(node.getConnectionStates()).containsExactly(ConnectionState.CONNECTED,
						ConnectionState.SUSPENDED, ConnectionState.RECONNECTED);
			}
		}
	}

}
