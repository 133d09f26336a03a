package io.github.distlock.curator;

import java.time.Duration;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.distlock.core.LockHandle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * ZooKeeper reaps empty container nodes; when a lock's parent is re-created, sequence
 * numbers start over, so only the creating zxid can serve as a fencing token.
 */
class FencingAfterReapTest {

	private static TestingServer server;

	@BeforeAll
	static void startServerThatReapsContainersQuickly() throws Exception {
		String previous = System.setProperty("znode.container.checkIntervalMs", "100");
		try {
			server = new TestingServer(true);
		}
		finally {
			if (previous == null) {
				System.clearProperty("znode.container.checkIntervalMs");
			}
			else {
				System.setProperty("znode.container.checkIntervalMs", previous);
			}
		}
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@Test
	void tokensKeepIncreasingAfterTheParentWasReapedAndRecreated() throws Exception {
		try (ZooKeeperClients clients = new ZooKeeperClients()) {
			CuratorLocks node1 = clients.locks(server.getConnectString());
			CuratorLocks node2 = clients.locks(server.getConnectString());
			long previous = 0;
			for (int round = 0; round < 3; round++) {
				CuratorLocks node = (round % 2 == 0) ? node1 : node2;
				// Several holders in a row push the sequence number up...
				for (int i = 0; i < 3; i++) {
					try (LockHandle handle = node.mutex("reaped/key").acquire(Duration.ofSeconds(5))) {
						assertThat(handle.fencingToken()).isGreaterThan(previous);
						previous = handle.fencingToken();
					}
				}
				// ...then the empty parent is reaped, and the next holder starts at
				// sequence 0.
				await().atMost(Duration.ofSeconds(10))
					.until(() -> node1.client().checkExists().forPath("/mutex/reaped/key") == null);
				try (LockHandle handle = node.mutex("reaped/key").acquire(Duration.ofSeconds(5))) {
					assertThat(node.client().getChildren().forPath("/mutex/reaped/key"))
						.singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
						.endsWith("0000000000");
					assertThat(handle.fencingToken()).isGreaterThan(previous);
					previous = handle.fencingToken();
				}
			}
		}
	}

}
