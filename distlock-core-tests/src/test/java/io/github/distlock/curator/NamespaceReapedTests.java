package io.github.distlock.curator;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Curator makes the client's namespace node a container, once per client: when every lock
 * is released, ZooKeeper reaps the lock parents and then the namespace node itself.
 */
class NamespaceReapedTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension()
		.withServerSystemProperty("znode.container.checkIntervalMs", "100");

	@Test
	void locksAreAcquiredAfterZooKeeperReapedTheEmptyNamespaceNode() throws Exception {
		CuratorLocks node = zookeeper.newNode();
		try (LockHandle handle = node.mutex("first").acquire(Duration.ofSeconds(5))) {
			assertThat(handle.isHeld()).isTrue();
		}
		CuratorFramework root = node.client().usingNamespace(null);
		String namespace = "/" + node.client().getNamespace();
		await().atMost(Duration.ofSeconds(10)).until(() -> root.checkExists().forPath(namespace) == null);
		try (LockHandle handle = node.mutex("second").acquire(Duration.ofSeconds(5))) {
			assertThat(handle.isHeld()).isTrue();
		}
	}

}
