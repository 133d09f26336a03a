package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class SemaphoreTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void atMostPermitsHoldersAcrossThreeNodesAndTheMaximumIsReached() throws Exception {
		int permits = 3;
		List<CuratorLocks> nodes = List.of(zookeeper.newNode(), zookeeper.newNode(), zookeeper.newNode());
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger maxInside = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(12);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < 12; t++) {
				CuratorLocks node = nodes.get(t % 3);
				futures.add(pool.submit(() -> {
					for (int i = 0; i < 6; i++) {
						node.semaphore("reports", permits).execute(Duration.ofSeconds(60), () -> {
							maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
							// Stay inside long enough for the others to pile up.
							await().pollDelay(Duration.ofMillis(30)).until(() -> true);
							inside.decrementAndGet();
							return null;
						});
					}
					return null;
				}));
			}
			for (Future<?> future : futures) {
				future.get(120, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(maxInside.get()).isEqualTo(permits);
	}

	@Test
	void leaseIsReturnedWhenTheActionThrows() throws Exception {
		CuratorLocks node = zookeeper.newNode();
		for (int i = 0; i < 3; i++) {
			try {
				node.semaphore("failing", 1).execute(Duration.ofSeconds(5), () -> {
					throw new IllegalStateException("boom");
				});
			}
			catch (IllegalStateException expected) {
				assertThat(expected).hasMessage("boom");
			}
		}
		assertThat(node.semaphore("failing", 1).tryAcquire(Duration.ZERO)).isPresent()
			.get()
			.satisfies(LockHandle::close);
	}

	@Test
	void leaseIsFreedWhenItsHoldersSessionExpires() throws Exception {
		CuratorLocks holder = zookeeper.newNode();
		CuratorLocks other = zookeeper.newNode();
		LockHandle expiring = holder.semaphore("expiring", 1).acquire(Duration.ofSeconds(5));
		assertThat(other.semaphore("expiring", 1).tryAcquire(Duration.ZERO)).isEmpty();
		Faults.expireSession(holder.client());
		long start = System.nanoTime();
		try (LockHandle handle = other.semaphore("expiring", 1).acquire(Duration.ofSeconds(20))) {
			assertThat(handle.fencingToken()).isPositive();
		}
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
		assertThat(expiring.state()).isEqualTo(LockState.LOST);
		expiring.close();
	}

	@Test
	void nodesDeclaringDifferentPermitsForOnePathAreRefused() {
		CuratorLocks first = zookeeper.newNode();
		CuratorLocks second = zookeeper.newNode();
		try (LockHandle held = first.semaphore("declared", 2).acquire(Duration.ofSeconds(5))) {
			assertThatExceptionOfType(LockConfigurationException.class)
				.isThrownBy(() -> second.semaphore("declared", 5).acquire(Duration.ofSeconds(5)))
				.withMessageContaining("'declared' is declared here with 5 permits, but with 2 by another node");
			assertThatExceptionOfType(LockConfigurationException.class)
				.isThrownBy(() -> first.semaphore("declared", 3).acquire(Duration.ofSeconds(5)))
				.withMessageContaining("with 3 permits, but with 2");
			try (LockHandle same = second.semaphore("declared", 2).acquire(Duration.ofSeconds(5))) {
				assertThat(same.fencingToken()).isGreaterThan(held.fencingToken());
			}
		}
	}

	@Test
	void permitsBelowOneAreRejected() {
		CuratorLocks node = zookeeper.newNode();
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> node.semaphore("zero", 0))
			.withMessageContaining("at least 1 permit, but 0");
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> node.semaphore("negative", -1))
			.withMessageContaining("but -1");
	}

}
