package io.github.distlock.curator;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ClusterReadWriteLock;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockState;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A writer that takes the read side of its own lock (a downgrade) enters the hold of its
 * write lock: it exists only while that hold is held, and carries its fencing token
 * (invariants 1 and 2, docs/failure-model.md).
 */
class DowngradeSafetyTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	/**
	 * The write hold's session ended and another node took the write lock: the read side
	 * is not handed out, neither as a downgrade of the lost write hold nor with a fresh
	 * node sorted at the lost one's place (which would hold at once beside the new
	 * writer).
	 */
	@Test
	void downgradeOfALostWriteHoldIsRefusedWhileAnotherNodeWrites() throws Exception {
		CuratorLocks a = this.zookeeper.newNode();
		CuratorLocks b = this.zookeeper.newNode();
		ClusterReadWriteLock lockOfA = a.readWrite("doc");
		LockHandle write = lockOfA.writeLock().acquire(Duration.ofSeconds(5));
		try {
			CompletableFuture<LockHandle> otherWriter = b.readWrite("doc")
				.writeLock()
				.acquireAsync(Duration.ofSeconds(20));
			Faults.killSession(a.client());
			LockHandle writeOfB = otherWriter.get(20, TimeUnit.SECONDS);
			try {
				await().atMost(Duration.ofSeconds(10)).until(() -> write.state() == LockState.LOST);
				assertThatExceptionOfType(LockLostException.class)
					.isThrownBy(() -> lockOfA.readLock().acquire(Duration.ofSeconds(2)).close())
					.withMessageContaining("'doc'");
				assertThat(writeOfB.isHeld()).isTrue();
				assertThat(readNodes(b.client())).isEmpty();
			}
			finally {
				writeOfB.close();
			}
		}
		finally {
			write.close();
		}
	}

	/**
	 * A writer of another node queues behind the write hold; the holder downgrades and
	 * then releases both sides: the next writer's token is greater than every token the
	 * downgrading holder had (the read side carries the write side's token, though its
	 * node was created after the waiting writer's).
	 */
	@Test
	void downgradedReadCarriesTheWriteTokenSoTheNextWriterStillGetsAGreaterOne() throws Exception {
		CuratorLocks a = this.zookeeper.newNode();
		CuratorLocks b = this.zookeeper.newNode();
		ClusterReadWriteLock lockOfA = a.readWrite("ledger");
		LockHandle write = lockOfA.writeLock().acquire(Duration.ofSeconds(5));
		CompletableFuture<LockHandle> nextWriter = b.readWrite("ledger")
			.writeLock()
			.acquireAsync(Duration.ofSeconds(20));
		await().atMost(Duration.ofSeconds(10)).until(() -> queue(b.client()).size() == 2);
		LockHandle read = lockOfA.readLock().acquire(Duration.ofSeconds(5));
		assertThat(read.fencingToken()).isEqualTo(write.fencingToken());
		write.close();
		assertThat(nextWriter).isNotDone();
		read.close();
		try (LockHandle writeOfB = nextWriter.get(20, TimeUnit.SECONDS)) {
			assertThat(writeOfB.fencingToken()).isGreaterThan(read.fencingToken()).isGreaterThan(write.fencingToken());
		}
	}

	/**
	 * A downgrade whose write hold was lost while the read node was on its way is not
	 * handed out either: the read node was created in another session than the write
	 * node's.
	 */
	@Test
	void downgradeInANewSessionIsRefusedEvenBeforeTheLossIsReported() throws Exception {
		CuratorLocks a = this.zookeeper.newNode();
		CuratorLocks b = this.zookeeper.newNode();
		ClusterReadWriteLock lockOfA = a.readWrite("report");
		LockHandle write = lockOfA.writeLock().acquire(Duration.ofSeconds(5));
		try {
			// The engine is not told of the session's end: only the node's owner
			// shows it.
			a.ignoreConnectionStateEvents();
			long instance = a.clientInstance();
			Faults.killSession(a.client());
			try (LockHandle writeOfB = b.readWrite("report").writeLock().acquire(Duration.ofSeconds(20))) {
				await().atMost(Duration.ofSeconds(10))
					.until(() -> a.client().getZookeeperClient().isConnected() && a.clientInstance() != instance);
				assertThatExceptionOfType(LockLostException.class)
					.isThrownBy(() -> lockOfA.readLock().acquire(Duration.ofSeconds(2)).close());
				assertThat(writeOfB.isHeld()).isTrue();
				assertThat(readNodes(b.client())).isEmpty();
			}
		}
		finally {
			write.close();
		}
	}

	private static java.util.List<String> queue(CuratorFramework client) throws Exception {
		return Faults.children(client, "/rw/ledger");
	}

	private static java.util.List<String> readNodes(CuratorFramework client) throws Exception {
		java.util.List<String> nodes = new java.util.ArrayList<>();
		for (String path : java.util.List.of("/rw/doc", "/rw/report")) {
			Faults.children(client, path)
				.stream()
				.filter((name) -> name.contains(QueueDriver.READ_NAME))
				.forEach(nodes::add);
		}
		return nodes;
	}

}
