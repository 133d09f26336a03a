package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code acquireAsync}: completed on the engine's executor, never on a ZooKeeper thread;
 * a cancellation abandons a waiting acquisition and leaves no node; a cancellation that
 * meets the grant releases the lock instead of handing it out.
 */
class AsyncAcquisitionTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void completesOnTheExecutorNeverOnAZooKeeperThread() throws Exception {
		List<Runnable> parked = new CopyOnWriteArrayList<>();
		CuratorLocks node = locks(parked::add);
		CompletableFuture<LockHandle> future = node.mutex("async/executor").acquireAsync(Duration.ofSeconds(5));
		await().atMost(Duration.ofSeconds(10)).until(() -> !parked.isEmpty());
		// Granted, and not complete until the executor runs the hand-over.
		assertThat(future).isNotDone();
		AtomicReference<String> thread = new AtomicReference<>();
		CompletableFuture<LockHandle> observed = future
			.whenComplete((held, ex) -> thread.set(Thread.currentThread().getName()));
		Thread executorThread = new Thread(() -> parked.forEach(Runnable::run), "completion-executor");
		executorThread.start();
		LockHandle handle = observed.get(10, TimeUnit.SECONDS);
		assertThat(thread.get()).isEqualTo("completion-executor");
		handle.closeAsync().get(10, TimeUnit.SECONDS);
		assertThat(handle.state()).isEqualTo(LockState.RELEASED);
	}

	@Test
	void cancellingAWaitingAttemptLeavesNoNode() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode();
		CuratorLocks waiter = this.zookeeper.newNode();
		try (LockHandle held = holder.mutex("async/waiting").acquire(Duration.ofSeconds(5))) {
			CompletableFuture<LockHandle> waiting = waiter.mutex("async/waiting").acquireAsync(Duration.ofSeconds(30));
			await().atMost(Duration.ofSeconds(10))
				.until(() -> holder.client().getChildren().forPath("/mutex/async/waiting").size() == 2);
			assertThat(waiting.cancel(false)).isTrue();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> holder.client().getChildren().forPath("/mutex/async/waiting").size() == 1);
			assertThat(waiter.waitingCount()).isZero();
			assertThat(waiter.heldCount()).isZero();
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> waiter.leftovers() == 0);
	}

	@Test
	void cancellationThatMeetsTheGrantReleasesTheLock() throws Exception {
		List<Runnable> parked = new CopyOnWriteArrayList<>();
		CuratorLocks node = locks(parked::add);
		CuratorLocks other = this.zookeeper.newNode();
		CompletableFuture<LockHandle> future = node.mutex("async/granted").acquireAsync(Duration.ofSeconds(5));
		// Granted: the engine handed the delivery to the executor, which holds it.
		await().atMost(Duration.ofSeconds(10)).until(() -> !parked.isEmpty());
		assertThat(node.heldCount()).isOne();
		assertThat(future.cancel(false)).isTrue();
		parked.forEach(Runnable::run);
		await().atMost(Duration.ofSeconds(10)).until(() -> node.heldCount() == 0);
		try (LockHandle next = other.mutex("async/granted").acquire(Duration.ofSeconds(5))) {
			assertThat(next.isHeld()).isTrue();
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> node.leftovers() == 0);
	}

	@Test
	void timeoutFailsTheFutureWithoutBlockingTheCaller() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode();
		CuratorLocks waiter = this.zookeeper.newNode();
		try (LockHandle held = holder.mutex("async/timeout").acquire(Duration.ofSeconds(5))) {
			CompletableFuture<LockHandle> future = waiter.mutex("async/timeout").acquireAsync(Duration.ofMillis(1500));
			// A caller blocked until the wait ended would get a future already failed.
			assertThat(future).isNotDone();
			assertThat(future).failsWithin(Duration.ofSeconds(5))
				.withThrowableThat()
				.havingCause()
				.isInstanceOf(LockTimeoutException.class)
				.withMessageContaining("1500ms");
		}
	}

	private CuratorLocks locks(Executor executor) {
		return this.zookeeper.newNode(executor);
	}

}
