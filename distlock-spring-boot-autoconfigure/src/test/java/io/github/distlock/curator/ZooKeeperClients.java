package io.github.distlock.curator;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Starts clients with short timeouts against a test server and closes them all at the
 * end. Each client has its own session: one client stands for one node of the cluster.
 */
final class ZooKeeperClients implements AutoCloseable {

	private final List<AutoCloseable> closeables = new ArrayList<>();

	CuratorFramework start(String connectString) {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.namespace("distlock-test")
			.sessionTimeoutMs(5000)
			.connectionTimeoutMs(3000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3, 1000))
			.build();
		client.start();
		this.closeables.add(client);
		return client;
	}

	CuratorLocks locks(String connectString) {
		return register(new CuratorLocks(start(connectString), java.time.Duration.ofSeconds(5), "test"));
	}

	CuratorLocks register(CuratorLocks locks) {
		this.closeables.add(0, locks);
		return locks;
	}

	@Override
	public void close() throws Exception {
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
	}

}
