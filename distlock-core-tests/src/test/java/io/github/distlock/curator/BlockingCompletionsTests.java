package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Completions that block (code an application chained to an acquisition) hold up their
 * own thread only: later grants are still delivered, and a blocking executor of the
 * application holds up neither ZooKeeper's event thread nor the deadline timer.
 */
class BlockingCompletionsTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void completionsThatBlockDoNotHoldUpLaterGrants() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		int blockers = Math.max(2, Runtime.getRuntime().availableProcessors()) + 2;
		CountDownLatch release = new CountDownLatch(1);
		CountDownLatch blocking = new CountDownLatch(blockers);
		List<CompletableFuture<Void>> blocked = new ArrayList<>();
		try {
			for (int i = 0; i < blockers; i++) {
				blocked.add(locks.mutex("blocking/" + i).acquireAsync(Duration.ofSeconds(10)).thenAccept((handle) -> {
					try (handle) {
						blocking.countDown();
						// An application that waits in its completion, e.g. for
						// another lock.
						release.await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}));
			}
			assertThat(blocking.await(10, TimeUnit.SECONDS)).as("every blocking completion runs").isTrue();
			CompletableFuture<LockHandle> later = locks.mutex("later").acquireAsync(Duration.ofSeconds(10));
			assertThat(later).succeedsWithin(Duration.ofSeconds(5));
			later.join().close();
		}
		finally {
			release.countDown();
		}
		for (CompletableFuture<Void> future : blocked) {
			assertThat(future).succeedsWithin(Duration.ofSeconds(5));
		}
	}

	@Test
	void anApplicationExecutorThatBlocksHoldsUpNeitherZooKeeperNorDeadlines() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		ExecutorService application = Executors.newCachedThreadPool();
		// An executor whose execute() blocks, as a full bounded queue with a blocking
		// policy does.
		Executor blockingExecutor = (task) -> {
			try {
				release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			application.execute(task);
		};
		CuratorFramework client = this.zookeeper.newClient();
		CuratorLocks locks = this.zookeeper.nodes()
			.register(this.zookeeper.options().createLocks(client, blockingExecutor));
		CuratorLocks other = this.zookeeper.newNode();
		try (LockHandle held = other.mutex("taken").acquire(Duration.ofSeconds(5))) {
			CompletableFuture<LockHandle> delivered = locks.mutex("async").acquireAsync(Duration.ofSeconds(10));
			// The grant above is waiting for the application's executor; the client's
			// ZooKeeper thread and timer go on.
			try (LockHandle sync = locks.mutex("sync").acquire(Duration.ofSeconds(5))) {
				assertThat(sync.isHeld()).isTrue();
			}
			long start = System.nanoTime();
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> locks.mutex("taken").acquire(Duration.ofMillis(500)));
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
			assertThat(delivered).isNotDone();
			release.countDown();
			assertThat(delivered).succeedsWithin(Duration.ofSeconds(5));
			delivered.join().close();
		}
		finally {
			release.countDown();
			application.shutdown();
		}
	}

}
