package io.github.distlock.curator;

import org.apache.curator.RetryPolicy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;

import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.ZooKeeperExtension;

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

}
