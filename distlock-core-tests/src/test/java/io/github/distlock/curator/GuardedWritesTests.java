package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockState;
import io.github.distlock.core.MultiLockHandle;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Guarded writes: data kept in ZooKeeper is written only while the writer's lock node
 * exists, checked by the server in the same multi-operation, whatever the writer knows.
 */
class GuardedWritesTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void writeLandsWhileTheLockIsHeld() throws Exception {
		CuratorLocks node = this.zookeeper.newNode();
		CuratorFramework client = node.client();
		client.create().creatingParentsIfNeeded().forPath("/data/limits", bytes("0"));
		try (LockHandle handle = node.mutex("limits").acquire(Duration.ofSeconds(5))) {
			assertThat(handle.nodePath()).hasValueSatisfying((path) -> assertThat(path).startsWith("/mutex/limits/"));
			new GuardedWrites(client).commit(handle,
					client.transactionOp().setData().forPath("/data/limits", bytes("1")));
		}
		// Read by a plain Curator client beside the engine's.
		assertThat(new String(this.zookeeper.newClient().getData().forPath("/data/limits"), StandardCharsets.UTF_8))
			.isEqualTo("1");
	}

	@Test
	void writeOfAHolderWhoseSessionEndedIsRefusedEvenBeforeItKnows() throws Exception {
		CuratorLocks node = this.zookeeper.newNode();
		CuratorLocks other = this.zookeeper.newNode();
		CuratorFramework client = other.client();
		client.create().creatingParentsIfNeeded().forPath("/data/limits", bytes("0"));
		LockHandle handle = node.mutex("limits").acquire(Duration.ofSeconds(5));
		Faults.killSession(node.client());
		// The write goes through another session: only the lock node decides.
		assertThatExceptionOfType(LockLostException.class)
			.isThrownBy(() -> new GuardedWrites(client).commit(handle,
					client.transactionOp().setData().forPath("/data/limits", bytes("stale"))))
			.withMessageContaining("'limits'")
			.withMessageContaining("the guarded write was not applied")
			.withCauseInstanceOf(KeeperException.NoNodeException.class);
		assertThat(new String(client.getData().forPath("/data/limits"), StandardCharsets.UTF_8)).isEqualTo("0");
		await().atMost(Duration.ofSeconds(10)).until(() -> handle.state() == LockState.LOST);
		handle.close();
	}

	@Test
	void writeAfterReleaseIsRefused() throws Exception {
		CuratorLocks node = this.zookeeper.newNode();
		CuratorFramework client = node.client();
		LockHandle handle = node.readWrite("config").writeLock().acquire(Duration.ofSeconds(5));
		handle.closeAsync().get();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> new GuardedWrites(client).commit(handle,
				client.transactionOp().create().forPath("/data/created", bytes("x"))));
		assertThat(client.checkExists().forPath("/data/created")).isNull();
	}

	@Test
	void multiLockChecksEveryNodeAndFailingOperationsAreCuratorsOwn() throws Exception {
		CuratorLocks node = this.zookeeper.newNode();
		CuratorFramework client = node.client();
		try (MultiLockHandle handle = node.multi(List.of(node.mutex("a"), node.mutex("b")))
			.acquire(Duration.ofSeconds(5))) {
			GuardedWrites guarded = new GuardedWrites(client);
			assertThat(guarded.commit(handle, client.transactionOp().create().forPath("/both", bytes("x")))).hasSize(1);
			assertThatExceptionOfType(KeeperException.NodeExistsException.class)
				.isThrownBy(() -> guarded.commit(handle, client.transactionOp().create().forPath("/both")));
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
