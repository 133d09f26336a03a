package io.github.distlock.curator;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Closing the locks of a client ends every acquisition at once with a clear error,
 * refuses later ones at once, and leaves no thread of the engine behind (invariant 7,
 * docs/failure-model.md).
 */
class ClosedLocksTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void acquisitionAfterCloseFailsAtOnce() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		locks.mutex("warm").acquire(Duration.ofSeconds(5)).close();
		locks.close();
		for (ClusterLock lock : java.util.List.of(locks.mutex("closed"), locks.nonReentrantMutex("closed"),
				locks.readWrite("closed").readLock(), locks.readWrite("closed").writeLock(),
				locks.semaphore("closed", 2))) {
			CompletableFuture<LockHandle> sync = CompletableFuture
				.supplyAsync(() -> lock.acquire(Duration.ofSeconds(30)));
			assertThatThrownBy(() -> sync.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
				.cause()
				.isInstanceOf(LockAcquisitionException.class)
				.hasMessageContaining("closed");
			CompletableFuture<LockHandle> async = lock.acquireAsync(Duration.ofSeconds(30));
			assertThatThrownBy(() -> async.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
				.cause()
				.isInstanceOf(LockAcquisitionException.class)
				.hasMessageContaining("closed");
		}
	}

	@Test
	void closeEndsEveryWaitingAttemptAtOnce() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode();
		CuratorLocks waiter = this.zookeeper.newNode();
		try (LockHandle held = holder.mutex("busy").acquire(Duration.ofSeconds(5));
				LockHandle permit = holder.semaphore("busy", 1).acquire(Duration.ofSeconds(5))) {
			CompletableFuture<LockHandle> forever = waiter.mutex("busy").acquireAsync(Duration.ofMillis(-1));
			CompletableFuture<LockHandle> semaphore = waiter.semaphore("busy", 1).acquireAsync(Duration.ofMinutes(5));
			await().atMost(Duration.ofSeconds(10)).until(() -> waiter.waitingCount() == 2);
			long start = System.nanoTime();
			waiter.close();
			for (CompletableFuture<LockHandle> attempt : java.util.List.of(forever, semaphore)) {
				assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> attempt.get(5, TimeUnit.SECONDS))
					.havingCause()
					.isInstanceOf(LockAcquisitionException.class)
					.withMessageContaining("closed");
			}
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
			assertThat(waiter.waitingCount()).isZero();
		}
	}

	@Test
	void closeLeavesNoThreadOfTheEngine() throws Exception {
		Set<Thread> before = engineThreads();
		CuratorLocks holder = this.zookeeper.newNode();
		CuratorLocks locks = this.zookeeper.newNode();
		try (LockHandle held = holder.mutex("threads").acquire(Duration.ofSeconds(5))) {
			CompletableFuture<LockHandle> waiting = locks.mutex("threads").acquireAsync(Duration.ofSeconds(30));
			locks.mutex("other").acquireAsync(Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS).close();
			assertThat(engineThreads()).isNotEqualTo(before);
			locks.close();
			assertThat(waiting).failsWithin(Duration.ofSeconds(5))
				.withThrowableOfType(ExecutionException.class)
				.withCauseInstanceOf(LockAcquisitionException.class);
		}
		holder.close();
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(engineThreads()).isSubsetOf(before));
	}

	private static Set<Thread> engineThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("distlock-") && thread.isAlive())
			.collect(Collectors.toSet());
	}

}
