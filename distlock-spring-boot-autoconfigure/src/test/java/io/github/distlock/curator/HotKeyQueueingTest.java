package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Threads of one client wanting the same exclusive lock queue locally, so only one of
 * them waits in ZooKeeper; a waiter of another client still gets its turn after at most
 * one more holder of the saturated client.
 */
class HotKeyQueueingTest {

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
			assertThat(maxNodes).isEqualTo(1);
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void waiterOfAnotherClientIsServedAfterAtMostTwoHoldsOfASaturatedClient() throws Exception {
		CuratorLocks saturated = zookeeper.newNode();
		CuratorLocks other = zookeeper.newNode();
		AtomicBoolean running = new AtomicBoolean(true);
		AtomicLong holds = new AtomicLong();
		ExecutorService pool = Executors.newFixedThreadPool(16);
		List<Long> overtakes = new ArrayList<>();
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int i = 0; i < 16; i++) {
				workers.add(pool.submit(() -> {
					while (running.get()) {
						saturated.mutex("fair").execute(Duration.ofSeconds(30), holds::incrementAndGet);
					}
					return null;
				}));
			}
			for (int round = 0; round < 10; round++) {
				long before = holds.get();
				try (LockHandle handle = other.mutex("fair").acquire(Duration.ofSeconds(30))) {
					overtakes.add(holds.get() - before);
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
		// The holder at the moment the waiter queued, plus at most one that queued just
		// before it.
		assertThat(overtakes).allSatisfy((count) -> assertThat(count).isLessThanOrEqualTo(2));
		assertThat(holds.get()).isPositive();
	}

}
