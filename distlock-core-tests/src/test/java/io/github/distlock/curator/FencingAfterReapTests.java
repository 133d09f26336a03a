package io.github.distlock.curator;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * ZooKeeper reaps empty container nodes; when a lock's parent is re-created, sequence
 * numbers start over, so only the creating zxid can serve as a fencing token.
 */
class FencingAfterReapTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension()
		.withServerSystemProperty("znode.container.checkIntervalMs", "100");

	@Test
	void tokensKeepIncreasingAfterTheParentWasReapedAndRecreated() throws Exception {
		CuratorLocks node1 = zookeeper.newNode();
		CuratorLocks node2 = zookeeper.newNode();
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
