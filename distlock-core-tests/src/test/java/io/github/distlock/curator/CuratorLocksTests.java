package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockReentryException;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class CuratorLocksTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private CuratorLocks node1;

	private CuratorLocks node2;

	@BeforeEach
	void startNodes() {
		this.node1 = zookeeper.newNode();
		this.node2 = zookeeper.newNode();
	}

	@Test
	void twoNodesWithEightThreadsEachNeverOverlapAndCountExactly() throws Exception {
		int[] counter = { 0 };
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger maxInside = new AtomicInteger();
		int perThread = 25;
		ExecutorService pool = Executors.newFixedThreadPool(16);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < 16; t++) {
				CuratorLocks node = (t % 2 == 0) ? this.node1 : this.node2;
				futures.add(pool.submit(() -> {
					for (int i = 0; i < perThread; i++) {
						node.mutex("counter").execute(Duration.ofSeconds(30), () -> {
							maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
							int read = counter[0];
							Thread.yield();
							counter[0] = read + 1;
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
		assertThat(counter[0]).isEqualTo(16 * perThread);
		assertThat(maxInside.get()).isEqualTo(1);
		assertThat(this.node1.leftovers()).isZero();
		assertThat(this.node2.leftovers()).isZero();
	}

	@Test
	void holderReentersAndKeepsItsFencingToken() {
		try (LockHandle outer = this.node1.mutex("reentrant").acquire(Duration.ofSeconds(5))) {
			try (LockHandle inner = this.node1.mutex("reentrant").acquire(Duration.ZERO)) {
				assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
			}
			assertThat(this.node1.mutex("reentrant").isHeldByCurrentThread()).isTrue();
			assertThat(this.node2.mutex("reentrant").tryAcquire(Duration.ZERO)).isEmpty();
		}
		assertThat(this.node1.mutex("reentrant").isHeldByCurrentThread()).isFalse();
		Optional<LockHandle> other = this.node2.mutex("reentrant").tryAcquire(Duration.ofSeconds(5));
		assertThat(other).isPresent();
		other.get().close();
	}

	@Test
	void nonReentrantLockReacquiredByItsHolderFailsFast() {
		try (LockHandle held = this.node1.nonReentrantMutex("exclusive").acquire(Duration.ofSeconds(5))) {
			long start = System.nanoTime();
			assertThatExceptionOfType(LockReentryException.class)
				.isThrownBy(() -> this.node1.nonReentrantMutex("exclusive").acquire(Duration.ofSeconds(10)))
				.withMessageContaining("'exclusive' is not reentrant")
				.withMessageContaining(Thread.currentThread().getName());
			// Refused, not waited out.
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
			assertThat(this.node2.nonReentrantMutex("exclusive").tryAcquire(Duration.ofMillis(200))).isEmpty();
		}
		try (LockHandle next = this.node2.nonReentrantMutex("exclusive").acquire(Duration.ofSeconds(5))) {
			assertThat(next.fencingToken()).isPositive();
		}
	}

	@Test
	void nonReentrantLockMayBeReleasedByAnotherThread() throws Exception {
		LockHandle handle = this.node1.nonReentrantMutex("handover").acquire(Duration.ofSeconds(5));
		Thread releaser = new Thread(handle::close);
		releaser.start();
		releaser.join(10_000);
		try (LockHandle again = this.node1.nonReentrantMutex("handover").acquire(Duration.ofSeconds(5))) {
			assertThat(again.fencingToken()).isGreaterThan(handle.fencingToken());
		}
	}

	@Test
	void reentrantLockReleasedByAnotherThreadLeavesNoTraceOnTheAcquiringThread() throws Exception {
		LockHandle handle = this.node1.mutex("owned").acquire(Duration.ofSeconds(5));
		assertThat(LockContext.current().locks()).containsExactly(handle);
		Thread other = new Thread(handle::close);
		other.start();
		other.join(10_000);
		assertThat(handle.state()).isEqualTo(LockState.RELEASED);
		assertThat(LockContext.current().locks()).isEmpty();
		assertThat(this.node1.mutex("owned").isHeldByCurrentThread()).isFalse();
		assertThat(this.node2.mutex("owned").tryAcquire(Duration.ofSeconds(5))).isPresent()
			.get()
			.satisfies(LockHandle::close);
	}

	@Test
	void fencingTokensStrictlyIncreaseAcrossNodesAndKinds() {
		long previous = 0;
		for (int i = 0; i < 10; i++) {
			CuratorLocks node = (i % 2 == 0) ? this.node1 : this.node2;
			try (LockHandle handle = (i % 3 == 0) ? node.nonReentrantMutex("tokens").acquire(Duration.ofSeconds(5))
					: node.mutex("tokens").acquire(Duration.ofSeconds(5))) {
				assertThat(handle.fencingToken()).isGreaterThan(previous);
				previous = handle.fencingToken();
			}
		}
	}

	@Test
	void waiterQueuedBeforeHolderReleasesGetsHigherToken() throws Exception {
		LockHandle first = this.node1.mutex("queue").acquire(Duration.ofSeconds(5));
		CountDownLatch waiting = new CountDownLatch(1);
		ExecutorService pool = Executors.newSingleThreadExecutor();
		try {
			Future<Long> second = pool.submit(() -> {
				waiting.countDown();
				try (LockHandle handle = this.node2.mutex("queue").acquire(Duration.ofSeconds(20))) {
					return handle.fencingToken();
				}
			});
			waiting.await();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.node1.client().getChildren().forPath("/mutex/queue").size() == 2);
			first.close();
			assertThat(second.get(20, TimeUnit.SECONDS)).isGreaterThan(first.fencingToken());
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void timeoutNamesThePathAndLeavesNoNodeBehind() throws Exception {
		try (LockHandle held = this.node1.mutex("busy").acquire(Duration.ofSeconds(5))) {
			long start = System.nanoTime();
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> this.node2.mutex("busy").acquire(Duration.ofMillis(300)))
				.withMessageContaining("'busy'")
				.withMessageContaining("300ms")
				.withMessageContaining("held by another holder");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
			// The abandoned acquisition's node is deleted in the background.
			await().atMost(Duration.ofSeconds(5))
				.until(() -> this.node1.client().getChildren().forPath("/mutex/busy").size() == 1);
		}
		assertThat(this.node2.leftovers()).isZero();
	}

	@Test
	void bothKindsOfMutexOnOnePathAreOneLock() throws Exception {
		try (LockHandle mutex = this.node1.mutex("shared-name").acquire(Duration.ofSeconds(5))) {
			assertThat(this.node2.nonReentrantMutex("shared-name").tryAcquire(Duration.ZERO)).isEmpty();
			// The holder asking for it without reentrancy would wait for itself.
			assertThatExceptionOfType(LockReentryException.class)
				.isThrownBy(() -> this.node1.nonReentrantMutex("shared-name").acquire(Duration.ofSeconds(5)));
			// The refused try's node is deleted in the background: one holder's
			// node stays.
			await().atMost(Duration.ofSeconds(5))
				.until(() -> this.node1.client().getChildren().forPath("/mutex/shared-name").size() == 1);
		}
		try (LockHandle exclusive = this.node1.nonReentrantMutex("shared-name").acquire(Duration.ofSeconds(5))) {
			assertThat(this.node2.mutex("shared-name").tryAcquire(Duration.ZERO)).isEmpty();
			assertThatExceptionOfType(LockReentryException.class)
				.isThrownBy(() -> this.node1.mutex("shared-name").acquire(Duration.ofSeconds(5)));
		}
		assertThat(this.node1.client().checkExists().forPath("/mutex-nr")).isNull();
	}

	@Test
	void escapedSegmentsStayUnderTheLockRoot() throws Exception {
		LockPath path = LockPath.of("users", "../../zookeeper");
		try (LockHandle handle = this.node1.mutex(path).acquire(Duration.ofSeconds(5))) {
			assertThat(this.node1.client().getChildren().forPath("/mutex/users"))
				.containsExactly("..%2F..%2Fzookeeper");
		}
	}

	@Test
	void lockNodeNamesItsHolder() throws Exception {
		try (LockHandle handle = this.node1.mutex("identity").acquire(Duration.ofSeconds(5))) {
			String node = this.node1.client().getChildren().forPath("/mutex/identity").get(0);
			String data = new String(this.node1.client().getData().forPath("/mutex/identity/" + node));
			assertThat(data).contains("\"app\":\"test\"")
				.contains("\"pid\":" + ProcessHandle.current().pid())
				.contains("\"thread\":\"" + Thread.currentThread().getName() + "\"")
				.contains("\"since\":");
		}
	}

	@Test
	void builtLocksUseWhatTheBuilderWasGivenAndItsDefaultsOtherwise() throws Exception {
		CuratorFramework client = zookeeper.newClient();
		try (CuratorLocks defaults = CuratorLocks.builder(client).build()) {
			assertThat(defaults.defaultWaitTime()).isEqualTo(Duration.ofSeconds(5));
			assertThat(defaults.connectionLossPolicy()).isEqualTo(ConnectionLossPolicy.SUSPENDED);
			try (LockHandle handle = defaults.mutex("built-defaults").acquire(Duration.ofSeconds(5))) {
				assertThat(holderData(client, "/mutex/built-defaults")).contains("\"app\":\"application\"");
			}
		}
		ExecutorService completions = Executors.newSingleThreadExecutor((task) -> new Thread(task, "completions"));
		try (CuratorLocks locks = CuratorLocks.builder(client)
			.defaultWaitTime(Duration.ofSeconds(7))
			.applicationName("billing")
			.connectionLossPolicy(ConnectionLossPolicy.LOST)
			.completionExecutor(completions)
			.build()) {
			assertThat(locks.defaultWaitTime()).isEqualTo(Duration.ofSeconds(7));
			assertThat(locks.connectionLossPolicy()).isEqualTo(ConnectionLossPolicy.LOST);
			String[] completedOn = new String[1];
			try (LockHandle handle = locks.mutex("built")
				.acquireAsync(Duration.ofSeconds(5))
				.whenComplete((held, error) -> completedOn[0] = Thread.currentThread().getName())
				.get(10, TimeUnit.SECONDS)) {
				assertThat(holderData(client, "/mutex/built")).contains("\"app\":\"billing\"");
			}
			assertThat(completedOn[0]).isEqualTo("completions");
		}
		finally {
			completions.shutdownNow();
		}
	}

	private static String holderData(CuratorFramework client, String queue) throws Exception {
		String node = client.getChildren().forPath(queue).get(0);
		return new String(client.getData().forPath(queue + "/" + node), StandardCharsets.UTF_8);
	}

	@Test
	void interruptedWaiterGivesUpKeepsTheFlagAndLeavesNoNode() throws Exception {
		try (LockHandle held = this.node1.mutex("interrupt").acquire(Duration.ofSeconds(5))) {
			Throwable[] failure = new Throwable[1];
			boolean[] flag = new boolean[1];
			Thread waiter = new Thread(() -> {
				try {
					this.node2.mutex("interrupt").acquire(Duration.ofSeconds(30));
				}
				catch (Throwable ex) {
					failure[0] = ex;
					flag[0] = Thread.currentThread().isInterrupted();
				}
			});
			waiter.start();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.node1.client().getChildren().forPath("/mutex/interrupt").size() == 2);
			waiter.interrupt();
			waiter.join(10_000);
			assertThat(failure[0]).isInstanceOf(io.github.distlock.core.LockAcquisitionException.class)
				.hasMessageContaining("Interrupted");
			assertThat(flag[0]).isTrue();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> this.node1.client().getChildren().forPath("/mutex/interrupt").size() == 1);
		}
	}

}
