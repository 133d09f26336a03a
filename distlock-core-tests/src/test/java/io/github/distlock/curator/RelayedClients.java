package io.github.distlock.curator;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.RetryPolicy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A client of the test's server that connects through a {@link TcpRelay}, so that the
 * test can cut, hold or delay its connection: 10 s sessions, 3 s to connect, the lock
 * root's namespace. It is started, and closed after the test.
 */
final class RelayedClients {

	private RelayedClients() {
	}

	static CuratorFramework start(ZooKeeperExtension zookeeper, TcpRelay relay, RetryPolicy retry) {
		CuratorFramework client = zookeeper.nodes()
			.register(CuratorFrameworkFactory.builder()
				.connectString(relay.getConnectString())
				.namespace(zookeeper.options().namespace())
				.sessionTimeoutMs(10_000)
				.connectionTimeoutMs(3_000)
				.retryPolicy(retry)
				.build());
		client.start();
		return client;
	}

	/**
	 * The client gives up on its session while the server keeps it, and the nodes with
	 * it: another handle takes the session over while the relay holds the client's
	 * connection, the client's session is expired on its side, and the relay lets it
	 * connect again. Returns once Curator is connected through a new handle (a new
	 * session).
	 */
	static void replaceSessionKeptOnServer(ZooKeeperExtension zookeeper, TcpRelay relay, CuratorFramework client)
			throws Exception {
		long instance = client.getZookeeperClient().getInstanceIndex();
		relay.pause();
		ZooKeeper old = client.getZookeeperClient().getZooKeeper();
		CountDownLatch attached = new CountDownLatch(1);
		ZooKeeper keeper = new ZooKeeper(zookeeper.connectString(), old.getSessionTimeout(), (event) -> {
			if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
				attached.countDown();
			}
		}, old.getSessionId(), old.getSessionPasswd());
		zookeeper.nodes().register(keeper::close);
		assertThat(attached.await(10, TimeUnit.SECONDS)).isTrue();
		Faults.expireSession(client);
		relay.dropConnections();
		relay.resume();
		await().atMost(Duration.ofSeconds(20))
			.until(() -> client.getZookeeperClient().getInstanceIndex() != instance
					&& client.getZookeeperClient().isConnected());
	}

}
