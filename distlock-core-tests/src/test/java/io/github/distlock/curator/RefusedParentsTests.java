package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * When ZooKeeper refuses to create a lock's parent (the client may read the namespace but
 * not create in it), the acquisition fails at once with ZooKeeper's answer, naming the
 * refused node once, instead of making the parents again every 50 ms until its deadline
 * and reporting that ZooKeeper did not answer.
 */
class RefusedParentsTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension(NodeOptions.defaults().withNamespace("shared"));

	@Test
	void refusedParentFailsTheAcquisitionAtOnceNamingTheNode() throws Exception {
		try (CuratorFramework admin = createReadOnlyNamespace()) {
			CuratorLocks locks = this.zookeeper.newNode();
			for (ClusterLock lock : List.of(locks.mutex("x"), locks.readWrite("x").writeLock(),
					locks.semaphore("x", 2))) {
				long start = System.nanoTime();
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> lock.acquire(Duration.ofSeconds(20)))
					.withMessageContaining("ZooKeeper refused access to /shared/" + lock.kind().subtree())
					.withMessageNotContaining("/shared/shared")
					.withMessageNotContaining("did not answer")
					.withCauseInstanceOf(KeeperException.NoAuthException.class);
				assertThat(Duration.ofNanos(System.nanoTime() - start)).as(lock.toString())
					.isLessThan(Duration.ofSeconds(10));
			}
		}
	}

	@Test
	void engineBuiltWithoutAdviceNamesNoProperty() throws Exception {
		try (CuratorFramework admin = createReadOnlyNamespace()) {
			CuratorLocks locks = this.zookeeper.newNode();
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> locks.mutex("x").acquire(Duration.ofSeconds(20)))
				.withMessageEndingWith(". Check the ZooKeeper client's credentials (they must be those of the "
						+ "identity that created the nodes) and the ACLs of the lock nodes")
				.withMessageNotContaining("distlock.");
		}
	}

	/**
	 * Create the namespace node {@code /shared} that only {@code admin} may create in and
	 * anyone may read; return the admin's client, for the caller to close.
	 */
	private CuratorFramework createReadOnlyNamespace() throws Exception {
		CuratorFramework admin = this.zookeeper.options()
			.withNamespace(null)
			.startDigestClient(this.zookeeper.connectString(), "admin:secret");
		Id adminId = new Id("digest", DigestAuthenticationProvider.generateDigest("admin:secret"));
		admin.create()
			.withMode(CreateMode.PERSISTENT)
			.withACL(List.of(new ACL(ZooDefs.Perms.ALL, adminId),
					new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE)))
			.forPath("/shared");
		return admin;
	}

}
