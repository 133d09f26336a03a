package io.github.distlock.curator;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Waiting costs no thread: 10 000 asynchronous acquisitions waiting at once, each on a
 * path another node holds, grow the JVM's live threads by at most 20; all are granted
 * once their holders release, and all abandon cleanly, leaving no node, when their
 * deadline comes first.
 */
class NoThreadPerWaiterTests {

	private static final int PATHS = 10_000;

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension(
			NodeOptions.defaults().withSessionTimeout(Duration.ofSeconds(30)));

	@Test
	void tenThousandWaitersCostNoThreadEachAndAreAllGrantedOrAbandonedCleanly() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode();
		CuratorLocks waiter = this.zookeeper.newNode();
		// Warm both clients' threads (timer, event threads) before counting.
		waiter.mutex("warm").acquireAsync(Duration.ofSeconds(10)).get(10, TimeUnit.SECONDS).close();
		holder.mutex("warm").acquireAsync(Duration.ofSeconds(10)).get(10, TimeUnit.SECONDS).close();

		List<LockHandle> held = holdAll(holder, "key");
		int threadsBefore = THREADS.getThreadCount();

		// First the waiters give up at a short deadline: nothing of theirs is left.
		List<CompletableFuture<LockHandle>> abandoning = new ArrayList<>(PATHS);
		for (int i = 0; i < PATHS; i++) {
			abandoning.add(waiter.mutex("key/" + i).acquireAsync(Duration.ofSeconds(2)));
		}
		for (CompletableFuture<LockHandle> future : abandoning) {
			assertThat(future).failsWithin(Duration.ofSeconds(60))
				.withThrowableThat()
				.havingCause()
				.isInstanceOf(LockTimeoutException.class);
		}
		int threadsAfterAbandoning = THREADS.getThreadCount();
		assertThat(threadsAfterAbandoning - threadsBefore).isLessThanOrEqualTo(20);
		await().atMost(Duration.ofSeconds(60)).until(() -> waiter.waitingCount() == 0 && waiter.leftovers() == 0);
		// Only the holders' nodes are left.
		await().atMost(Duration.ofSeconds(60))
			.until(() -> waiter.client().getChildren().forPath("/mutex/key/" + (PATHS - 1)).size() == 1);

		// Then they wait until the holders release: all are granted.
		long start = System.nanoTime();
		List<CompletableFuture<LockHandle>> waiting = new ArrayList<>(PATHS);
		for (int i = 0; i < PATHS; i++) {
			waiting.add(waiter.mutex("key/" + i).acquireAsync(Duration.ofSeconds(120)));
		}
		await().atMost(Duration.ofSeconds(120))
			.until(() -> waiter.waitingCount() == PATHS
					&& waiter.client().getChildren().forPath("/mutex/key/" + (PATHS - 1)).size() == 2);
		int threadsWhileWaiting = THREADS.getThreadCount();
		long queued = System.nanoTime() - start;
		assertThat(threadsWhileWaiting - threadsBefore).isLessThanOrEqualTo(20);
		held.forEach(LockHandle::close);
		long released = System.nanoTime();
		CompletableFuture.allOf(waiting.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
		long granted = System.nanoTime() - released;
		for (CompletableFuture<LockHandle> future : waiting) {
			future.get().close();
		}
		assertThat(waiter.heldCount()).isZero();
		System.out.println("[measure] " + PATHS + " waiters: " + PATHS + " abandoned at a 2 s deadline with "
				+ (threadsAfterAbandoning - threadsBefore) + " more live threads; " + PATHS + " queued in "
				+ TimeUnit.NANOSECONDS.toMillis(queued) + " ms with " + (threadsWhileWaiting - threadsBefore)
				+ " more live threads, all granted " + TimeUnit.NANOSECONDS.toMillis(granted)
				+ " ms after their holders released");
	}

	private static List<LockHandle> holdAll(CuratorLocks holder, String prefix) throws Exception {
		List<CompletableFuture<LockHandle>> futures = new ArrayList<>(PATHS);
		for (int i = 0; i < PATHS; i++) {
			futures.add(holder.mutex(prefix + "/" + i).acquireAsync(Duration.ofSeconds(120)));
		}
		List<LockHandle> handles = new ArrayList<>(PATHS);
		for (CompletableFuture<LockHandle> future : futures) {
			handles.add(future.get(120, TimeUnit.SECONDS));
		}
		return handles;
	}

}
