package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.Handle;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.MultiLock;
import io.github.distlock.core.MultiLockHandle;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class MultiLockTests {

	/**
	 * A thread per task: tasks that block must run at the same time, and from JDK 25 on
	 * CompletableFuture's default executor is the common pool even when its parallelism
	 * is 1 (two cores), which runs them one after the other.
	 */
	private static final Executor OWN_THREADS = (task) -> new Thread(task).start();

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private CuratorLocks node1;

	private CuratorLocks node2;

	@BeforeEach
	void startNodes() {
		this.node1 = zookeeper.newNode();
		this.node2 = zookeeper.newNode();
	}

	private MultiLock accounts(CuratorLocks node, String... names) {
		return node.multi(List.of(names).stream().map((name) -> node.mutex("accounts/" + name)).toList());
	}

	@Test
	void locksAreTakenInSortedOrderWhateverOrderTheyAreGiven() {
		assertThat(accounts(this.node1, "b", "c", "a", "b").locks()).extracting((lock) -> lock.path().value())
			.containsExactly("accounts/a", "accounts/b", "accounts/c");
	}

	@Test
	void overlappingSetsInOppositeOrderNeverDeadlock() throws Exception {
		long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		AtomicInteger rounds = new AtomicInteger();
		CompletableFuture<Void> ab = CompletableFuture.runAsync(() -> loop(accounts(this.node1, "A", "B"), end, rounds),
				OWN_THREADS);
		CompletableFuture<Void> ba = CompletableFuture.runAsync(() -> loop(accounts(this.node2, "B", "A"), end, rounds),
				OWN_THREADS);
		// Every acquisition waits at most 10 s; a deadlock would surface as
		// a LockTimeoutException.
		CompletableFuture.allOf(ab, ba).get(60, TimeUnit.SECONDS);
		assertThat(rounds.get()).isPositive();
	}

	private static void loop(MultiLock lock, long end, AtomicInteger rounds) {
		while (System.nanoTime() < end) {
			try (MultiLockHandle handle = lock.acquire(Duration.ofSeconds(10))) {
				assertThat(handle.handles()).hasSize(2);
				rounds.incrementAndGet();
			}
		}
	}

	@Test
	void whenOnePathCannotBeTakenNothingStaysLocked() throws Exception {
		try (LockHandle blocker = this.node2.mutex("accounts/b").acquire(Duration.ofSeconds(5))) {
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> accounts(this.node1, "a", "b", "c").acquire(Duration.ofMillis(300)))
				.withMessageContaining("accounts/b");
			// a was taken and given back (its node is deleted in the background, as every
			// release); c was never asked for.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> Faults.children(this.node2.client(), "/mutex/accounts/a").isEmpty());
			assertThat(this.node2.mutex("accounts/a").tryAcquire(Duration.ZERO)).isPresent()
				.get()
				.satisfies(LockHandle::close);
			assertThat(this.node1.client().checkExists().forPath("/mutex/accounts/c")).isNull();
		}
		assertThat(this.node1.leftovers()).isZero();
	}

	@Test
	void theWholeSetRespectsOneDeadline() throws Exception {
		// a is free only after 700 ms, b is held throughout: with one deadline of 1 s for
		// the set, the acquisition ends at 1 s, not 700 ms + a full second for b (1.7 s).
		LockHandle a = this.node2.mutex("accounts/a").acquire(Duration.ofSeconds(5));
		LockHandle b = this.node2.mutex("accounts/b").acquire(Duration.ofSeconds(5));
		long start = System.nanoTime();
		CompletableFuture<Void> attempt = CompletableFuture.runAsync(() -> {
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> accounts(this.node1, "a", "b").acquire(Duration.ofSeconds(1)))
				.withMessageContaining("for the whole set");
		});
		CompletableFuture.runAsync(() -> {
		}, CompletableFuture.delayedExecutor(700, TimeUnit.MILLISECONDS)).get(5, TimeUnit.SECONDS);
		a.close();
		attempt.get(10, TimeUnit.SECONDS);
		long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
		System.out.println("[measure] multi-lock with one deadline of 1000 ms: gave up after " + elapsedMillis + " ms");
		assertThat(elapsedMillis).isGreaterThanOrEqualTo(1000L).isLessThan(1700L);
		b.close();
	}

	@Test
	void theSetsHandleReadsAsOneHandle() {
		MultiLockHandle handle = accounts(this.node1, "a", "b").acquire(Duration.ofSeconds(5));
		Handle asHandle = handle;
		assertThat(asHandle.state()).isEqualTo(LockState.HELD);
		assertThat(asHandle.acquiredAt()).isEqualTo(handle.handles().get(1).acquiredAt())
			.isAfterOrEqualTo(handle.handles().get(0).acquiredAt());
		asHandle.assertHeld();
		asHandle.close();
		assertThat(asHandle.state()).isEqualTo(LockState.RELEASED);
		assertThat(asHandle.isHeld()).isFalse();
	}

	@Test
	void theSetsHandleIsLostWhenOneOfItsLocksIs() throws Exception {
		LockHandle a = this.node2.mutex("accounts/a").acquire(Duration.ofSeconds(5));
		a.close();
		MultiLockHandle handle = this.node1
			.multi(List.of(this.node1.mutex("accounts/a"), this.node2.mutex("accounts/b")))
			.acquire(Duration.ofSeconds(5));
		Faults.killSession(this.node2.client());
		await().atMost(Duration.ofSeconds(10)).until(() -> handle.state() == LockState.LOST);
		assertThat(handle.handles().get(0).state()).isEqualTo(LockState.HELD);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::assertHeld)
			.withMessageContaining("accounts/b");
		handle.close();
	}

}
