package io.github.distlock.benchmarks;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Starts Curator clients on the embedded ZooKeeper of the run. Each client has its own
 * session: one client stands for one node of a cluster.
 */
final class BenchmarkClients {

	/** System property carrying the connect string from the runner to the forked JVMs. */
	static final String CONNECT_PROPERTY = "distlock.bench.connect";

	/** Namespace of every contender's nodes. */
	static final String NAMESPACE = "bench";

	private BenchmarkClients() {
	}

	static String connectString() {
		String connect = System.getProperty(CONNECT_PROPERTY);
		if (connect == null) {
			throw new IllegalStateException("System property " + CONNECT_PROPERTY
					+ " is not set: run the benchmarks through BenchmarkMain, which starts ZooKeeper");
		}
		return connect;
	}

	static CuratorFramework start() {
		return start(connectString(), NAMESPACE);
	}

	static CuratorFramework start(String connectString, String namespace) {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.namespace(namespace)
			.sessionTimeoutMs(15_000)
			.connectionTimeoutMs(5_000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3, 1000))
			.build();
		client.start();
		try {
			if (!client.blockUntilConnected(30, java.util.concurrent.TimeUnit.SECONDS)) {
				client.close();
				throw new IllegalStateException("ZooKeeper at " + connectString + " did not answer");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			client.close();
			throw new IllegalStateException(ex);
		}
		return client;
	}

}
