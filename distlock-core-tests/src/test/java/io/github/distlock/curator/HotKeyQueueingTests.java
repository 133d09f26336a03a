package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Threads of one client wanting the same exclusive lock queue locally, so only one of
 * them waits in ZooKeeper; a waiter of another client is never overtaken by a node made
 * after its own, so it gets its turn after at most one more holder of the saturated
 * client.
 */
class HotKeyQueueingTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void threadsOfOneClientNeverHaveMoreThanOneNodeInZooKeeper() throws Exception {
		CuratorLocks busy = zookeeper.newNode();
		CuratorLocks observer = zookeeper.newNode();
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicInteger cycles = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(8);
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				workers.add(pool.submit(() -> {
					while (running.get()) {
						busy.mutex("hot").execute(Duration.ofSeconds(30), cycles::incrementAndGet);
					}
					return null;
				}));
			}
			int maxNodes = 0;
			long end = System.nanoTime() + Duration.ofSeconds(3).toNanos();
			while (System.nanoTime() < end) {
				try {
					maxNodes = Math.max(maxNodes, observer.client().getChildren().forPath("/mutex/hot").size());
				}
				catch (org.apache.zookeeper.KeeperException.NoNodeException ex) {
					// between two holders the parent may be briefly absent
				}
			}
			running.set(false);
			for (Future<?> worker : workers) {
				worker.get(30, TimeUnit.SECONDS);
			}
			assertThat(cycles.get()).isPositive();
			assertThat(maxNodes).isLessThanOrEqualTo(1);
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void waiterOfAnotherClientIsNeverOvertakenByANodeMadeAfterItsOwn() throws Exception {
		CuratorLocks saturated = zookeeper.newNode();
		CuratorLocks other = zookeeper.newNode();
		AtomicBoolean running = new AtomicBoolean(true);
		// Written while holding the lock, so its order is the order of the grants.
		List<long[]> grants = Collections.synchronizedList(new ArrayList<>());
		ExecutorService pool = Executors.newFixedThreadPool(16);
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int i = 0; i < 16; i++) {
				workers.add(pool.submit(() -> {
					while (running.get()) {
						try (LockHandle handle = saturated.mutex("fair").acquire(Duration.ofSeconds(30))) {
							grants.add(new long[] { SATURATED, handle.fencingToken() });
						}
					}
					return null;
				}));
			}
			for (int round = 0; round < 10; round++) {
				try (LockHandle handle = other.mutex("fair").acquire(Duration.ofSeconds(30))) {
					grants.add(new long[] { WAITER, handle.fencingToken() });
				}
			}
			running.set(false);
			for (Future<?> worker : workers) {
				worker.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		// A token is the creating zxid of the holder's node: a grant of the saturated
		// client before the waiter's with a higher token would be a node made after the
		// waiter's that went first. With at most one node of the saturated client in
		// the queue at a time (above), the waiter is served after at most the holder
		// and one queued node of the saturated client.
		long highestBefore = 0;
		int waiters = 0;
		int saturatedHolds = 0;
		synchronized (grants) {
			for (long[] grant : grants) {
				if (grant[0] == WAITER) {
					assertThat(highestBefore).as("token of the last saturated hold before the waiter's")
						.isLessThan(grant[1]);
					waiters++;
				}
				else {
					highestBefore = Math.max(highestBefore, grant[1]);
					saturatedHolds++;
				}
			}
		}
		assertThat(waiters).isEqualTo(10);
		assertThat(saturatedHolds).isPositive();
	}

	private static final long SATURATED = 0;

	private static final long WAITER = 1;

}
