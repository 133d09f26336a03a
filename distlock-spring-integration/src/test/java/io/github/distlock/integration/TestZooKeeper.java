package io.github.distlock.integration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.curator.CuratorLocks;

/**
 * A real ZooKeeper server per test (its tick time allows 3 s sessions), and nodes on it:
 * each a client with a session of its own and the {@link CuratorLocks} on it, closed
 * after the test. Raw clients (for Spring Integration's own registry) come from here too.
 */
final class TestZooKeeper implements BeforeEachCallback, AfterEachCallback {

	/** Namespace of the nodes' clients, and so the first segment of every lock node. */
	static final String NAMESPACE = "distlock-si";

	/** Session timeout the nodes ask for, and get. */
	static final Duration SESSION_TIMEOUT = Duration.ofSeconds(3);

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private TestingServer server;

	@Override
	public void beforeEach(ExtensionContext context) throws Exception {
		// ZooKeeper grants sessions of 2 to 20 ticks: a 250 ms tick allows 3 s sessions.
		this.server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 250, -1), true);
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		try {
			for (AutoCloseable closeable : this.closeables) {
				try {
					closeable.close();
				}
				catch (Exception ex) {
					// After a fault (a session ended, a server gone) closing may fail;
					// that is not what the tests are about.
				}
			}
			this.closeables.clear();
		}
		finally {
			this.server.close();
		}
	}

	TestingServer server() {
		return this.server;
	}

	String connectString() {
		return this.server.getConnectString();
	}

	/** A node with the default connection-loss policy. */
	CuratorLocks node() {
		return node(connectString(), ConnectionLossPolicy.SUSPENDED);
	}

	/** A node with the given connection-loss policy. */
	CuratorLocks node(ConnectionLossPolicy policy) {
		return node(connectString(), policy);
	}

	/** A node that reaches ZooKeeper through the given connect string (a relay's). */
	synchronized CuratorLocks node(String connectString, ConnectionLossPolicy policy) {
		CuratorFramework client = start(connectString, NAMESPACE);
		CuratorLocks locks = new CuratorLocks(client, Duration.ofSeconds(5), "si-test", policy);
		this.closeables.add(0, locks);
		return locks;
	}

	/** A raw client at ZooKeeper's root (no namespace). */
	synchronized CuratorFramework rawClient() {
		return start(connectString(), null);
	}

	/** Close the given resource with the nodes, before them. */
	synchronized <T extends AutoCloseable> T register(T closeable) {
		this.closeables.add(0, closeable);
		return closeable;
	}

	private CuratorFramework start(String connectString, String namespace) {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.namespace(namespace)
			.sessionTimeoutMs((int) SESSION_TIMEOUT.toMillis())
			.connectionTimeoutMs(2000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3, 1000))
			.build();
		client.start();
		this.closeables.add(client);
		return client;
	}

	/**
	 * End a node's session on the server, as the server does when a session times out (a
	 * process killed with {@code kill -9}): a second handle attaches to the session and
	 * closes it, so the server deletes its ephemeral nodes at once. Returns once the
	 * session is gone on the server.
	 */
	static void killSession(CuratorLocks node) throws Exception {
		ZooKeeper zooKeeper = node.client().getZookeeperClient().getZooKeeper();
		CountDownLatch connected = new CountDownLatch(1);
		ZooKeeper intruder = new ZooKeeper(node.client().getZookeeperClient().getCurrentConnectionString(),
				zooKeeper.getSessionTimeout(), (event) -> {
					if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
						connected.countDown();
					}
				}, zooKeeper.getSessionId(), zooKeeper.getSessionPasswd());
		try {
			if (!connected.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("Could not attach to the node's session");
			}
		}
		finally {
			intruder.close();
		}
	}

}
