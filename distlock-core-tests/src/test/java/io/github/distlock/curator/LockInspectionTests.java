package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.LockQueue;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What {@link CuratorLocks#inspect(LockPath)} (the endpoint's per-path view) says about a
 * lock's nodes: the protocols decide who holds and who waits, for distlock's nodes and
 * raw Curator's alike (every lease node was once shown as a holder).
 */
class LockInspectionTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void nonReentrantMutexHeldOnOneNodeAndAwaitedOnAnotherShowsOneHolderAndOneWaiter() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode();
		CuratorLocks waiter = this.zookeeper.newNode();
		try (LockHandle held = holder.nonReentrantMutex("report").acquire(Duration.ofSeconds(5))) {
			CompletableFuture<LockHandle> waiting = waiter.nonReentrantMutex("report")
				.acquireAsync(Duration.ofSeconds(10));
			await().atMost(Duration.ofSeconds(10)).until(() -> participants(holder, "report").size() == 2);
			List<LockQueue> queues = holder.inspect(LockPath.parse("report"));
			assertThat(queues).singleElement().satisfies((queue) -> {
				assertThat(queue.protocol()).isEqualTo(LockProtocol.MUTEX);
				assertThat(queue.participants()).extracting(LockParticipant::holds).containsExactly(true, false);
				assertThat(queue.participants().get(0).fencingToken()).isEqualTo(held.fencingToken());
			});
			held.close();
			waiting.get().close();
		}
	}

	@Test
	void semaphoreWithTwoPermitsAndAThirdCallerShowsTwoHoldersAndOneWaiter() throws Exception {
		CuratorLocks node = this.zookeeper.newNode();
		CuratorFramework raw = this.zookeeper.newClient();
		InterProcessSemaphoreV2 rawSemaphore = new InterProcessSemaphoreV2(raw, "/semaphore/reports", 2);
		LockHandle first = node.semaphore("reports", 2).acquire(Duration.ofSeconds(5));
		Lease second = rawSemaphore.acquire();
		CompletableFuture<LockHandle> third = this.zookeeper.newNode()
			.semaphore("reports", 2)
			.acquireAsync(Duration.ofSeconds(10));
		CompletableFuture<LockHandle> fourth = this.zookeeper.newNode()
			.semaphore("reports", 2)
			.acquireAsync(Duration.ofSeconds(10));
		// The third holds the guard and waits with a lease; the fourth waits for the
		// guard: two leases held, then the third's lease, the third's and the fourth's
		// guard nodes.
		await().atMost(Duration.ofSeconds(10)).until(() -> participants(node, "reports").size() == 5);
		List<LockParticipant> participants = participants(node, "reports");
		assertThat(participants).extracting(LockParticipant::side)
			.containsExactly("lease", "lease", "waiting", "waiting", "waiting");
		assertThat(participants).extracting(LockParticipant::holds).containsExactly(true, true, false, false, false);
		first.close();
		rawSemaphore.returnLease(second);
		third.get().close();
		fourth.get().close();
		await().atMost(Duration.ofSeconds(10)).until(() -> participants(node, "reports").isEmpty());
	}

	@Test
	void readWriteLockShowsReadersBeforeTheFirstWriterAsHolders() throws Exception {
		CuratorLocks node = this.zookeeper.newNode();
		CuratorLocks other = this.zookeeper.newNode();
		LockHandle reader = node.readWrite("prices").readLock().acquire(Duration.ofSeconds(5));
		LockHandle secondReader = other.readWrite("prices").readLock().acquire(Duration.ofSeconds(5));
		CompletableFuture<LockHandle> writer = other.readWrite("prices")
			.writeLock()
			.acquireAsync(Duration.ofSeconds(10));
		await().atMost(Duration.ofSeconds(10)).until(() -> participants(node, "prices").size() == 3);
		assertThat(participants(node, "prices")).extracting(LockParticipant::side, LockParticipant::holds)
			.containsExactly(org.assertj.core.groups.Tuple.tuple("read", true),
					org.assertj.core.groups.Tuple.tuple("read", true),
					org.assertj.core.groups.Tuple.tuple("write", false));
		reader.close();
		secondReader.close();
		writer.get().close();
	}

	/**
	 * A writer that downgrades holds both sides at its write lock's place; a writer of
	 * another node queued behind waits. The endpoint asks the protocols' drivers, and
	 * knows the read side entered the write side: it holds, with the write side's token.
	 */
	@Test
	void downgradedReadHoldsWithTheWriteTokenAndTheNextWriterWaits() throws Exception {
		CuratorLocks node = this.zookeeper.newNode();
		CuratorLocks other = this.zookeeper.newNode();
		try (LockHandle write = node.readWrite("ledger").writeLock().acquire(Duration.ofSeconds(5))) {
			CompletableFuture<LockHandle> nextWriter = other.readWrite("ledger")
				.writeLock()
				.acquireAsync(Duration.ofSeconds(10));
			await().atMost(Duration.ofSeconds(10)).until(() -> participants(node, "ledger").size() == 2);
			try (LockHandle read = node.readWrite("ledger").readLock().acquire(Duration.ofSeconds(5))) {
				List<LockParticipant> participants = participants(node, "ledger");
				assertThat(participants).filteredOn(LockParticipant::holds)
					.extracting(LockParticipant::side, LockParticipant::fencingToken)
					.containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("write", write.fencingToken()),
							org.assertj.core.groups.Tuple.tuple("read", write.fencingToken()));
				assertThat(participants).filteredOn((participant) -> !participant.holds())
					.singleElement()
					.extracting(LockParticipant::side)
					.isEqualTo("write");
			}
			write.close();
			nextWriter.get().close();
		}
	}

	private static List<LockParticipant> participants(CuratorLocks node, String path) {
		return node.inspect(LockPath.parse(path)).stream().flatMap((queue) -> queue.participants().stream()).toList();
	}

}
