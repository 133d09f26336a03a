package io.github.distlock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.InstanceSpec;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.curator.CuratorLocks;

/**
 * Clients with short session timeouts against a test server or cluster, closed together
 * at the end. Each client has its own session: one client stands for one node.
 */
final class FaultClients implements AutoCloseable {

	static final String NAMESPACE = "distlock-faults";

	/** Session timeout asked for; the servers' tick time lets ZooKeeper grant it. */
	static final int SESSION_TIMEOUT_MS = 3000;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	/**
	 * Spec of a server whose tick time allows short sessions (ZooKeeper grants between 2
	 * and 20 ticks).
	 */
	static InstanceSpec spec(int serverId) {
		return new InstanceSpec(null, -1, -1, -1, true, serverId, 250, -1);
	}

	CuratorFramework start(String connectString) {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.namespace(NAMESPACE)
			.sessionTimeoutMs(SESSION_TIMEOUT_MS)
			.connectionTimeoutMs(2000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3, 1000))
			.build();
		client.start();
		this.closeables.add(client);
		return client;
	}

	CuratorLocks locks(String connectString) {
		CuratorLocks locks = new CuratorLocks(start(connectString), Duration.ofSeconds(5), "faults",
				ConnectionLossPolicy.SUSPENDED);
		this.closeables.add(0, locks);
		return locks;
	}

	static void expireSession(CuratorFramework client) throws Exception {
		client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
	}

	@Override
	public void close() throws Exception {
		for (AutoCloseable closeable : this.closeables) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				// Closing after a fault may fail; the next closeable still gets closed.
			}
		}
	}

}
