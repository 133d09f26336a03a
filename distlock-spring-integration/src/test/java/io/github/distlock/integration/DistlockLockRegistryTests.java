package io.github.distlock.integration;

import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockPath;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The contract Spring Integration's own registry tests check
 * ({@code ZkLockRegistryTests}, {@code DefaultLockRegistryTests}), on a real ZooKeeper:
 * one lock per key, reentrant and owned by its thread, excluding other threads, other
 * registries and other nodes; what Spring Integration's registries do where it matters
 * (unlock by a non-owner, expiry, {@code executeLocked}); and what distlock adds
 * (interrupts, fencing tokens, keys of any content).
 */
class DistlockLockRegistryTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	private CuratorLocks node;

	private DistlockLockRegistry registry;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@BeforeEach
	void startNode() {
		this.node = this.zookeeper.newNode();
		this.registry = new DistlockLockRegistry(this.node);
	}

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void lockedTenTimesKeepsOneLockForTheKeyUntilExpiryFreesIt() throws Exception {
		for (int i = 0; i < 10; i++) {
			Lock lock = this.registry.obtain("orders");
			lock.lock();
			try {
				assertThat(this.registry.size()).isOne();
				assertThat(this.node.heldCount()).isOne();
			}
			finally {
				lock.unlock();
			}
		}
		assertThat(this.node.heldCount()).isZero();
		this.registry.expireUnusedOlderThan(0);
		assertThat(this.registry.size()).isZero();
	}

	@Test
	void lockInterruptiblyTenTimes() throws Exception {
		for (int i = 0; i < 10; i++) {
			Lock lock = this.registry.obtain("orders");
			lock.lockInterruptibly();
			try {
				assertThat(this.node.heldCount()).isOne();
			}
			finally {
				lock.unlock();
			}
		}
		assertThat(this.node.heldCount()).isZero();
	}

	@Test
	void sameKeyGivesTheSameReentrantLock() throws Exception {
		for (int i = 0; i < 10; i++) {
			Lock lock1 = this.registry.obtain("orders");
			lock1.lock();
			try {
				Lock lock2 = this.registry.obtain("orders");
				assertThat(lock2).isSameAs(lock1);
				lock2.lockInterruptibly();
				assertThat(lock2.tryLock()).isTrue();
				assertThat(lock2.tryLock(1, TimeUnit.MILLISECONDS)).isTrue();
				lock2.unlock();
				lock2.unlock();
				lock2.unlock();
				assertThat(this.node.heldCount()).as("one hold, however often the thread re-enters").isOne();
			}
			finally {
				lock1.unlock();
			}
		}
		assertThat(this.node.heldCount()).isZero();
	}

	@Test
	void differentKeysGiveDifferentLocksThatDoNotExcludeEachOther() throws Exception {
		Lock orders = this.registry.obtain("orders");
		orders.lockInterruptibly();
		try {
			Lock invoices = this.registry.obtain("invoices");
			assertThat(invoices).isNotSameAs(orders);
			assertThat(this.threads.submit(() -> tryAndRelease(invoices, 5000)).get(10, TimeUnit.SECONDS)).isTrue();
		}
		finally {
			orders.unlock();
		}
	}

	@Test
	void secondThreadFailsToGetTheLockAndCannotUnlockIt() throws Exception {
		Lock lock = this.registry.obtain("orders");
		lock.lockInterruptibly();
		try {
			Future<Object> other = this.threads.submit(() -> {
				Lock same = this.registry.obtain("orders");
				boolean locked = same.tryLock(200, TimeUnit.MILLISECONDS);
				try {
					same.unlock();
					return locked;
				}
				catch (IllegalMonitorStateException ex) {
					return ex;
				}
			});
			assertThat(other.get(10, TimeUnit.SECONDS)).isInstanceOfSatisfying(IllegalMonitorStateException.class,
					(ex) -> assertThat(ex).hasMessageContaining("does not own the lock of key 'orders'"));
		}
		finally {
			lock.unlock();
		}
	}

	@Test
	void unlockByAThreadThatDoesNotOwnTheLockFailsAndLeavesItHeld() throws Exception {
		Lock lock = this.registry.obtain("orders");
		lock.lockInterruptibly();
		Future<?> wrongThread = this.threads.submit(lock::unlock);
		assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
			.isThrownBy(() -> wrongThread.get(10, TimeUnit.SECONDS))
			.withCauseInstanceOf(IllegalMonitorStateException.class);
		assertThat(this.node.heldCount()).isOne();
		lock.unlock();
		assertThat(this.node.heldCount()).isZero();
	}

	@Test
	void secondThreadGetsTheLockOnceTheFirstUnlocks() throws Exception {
		assertWaiterGetsTheLockOnceReleased(this.registry, this.registry);
	}

	@Test
	void twoRegistriesOnOneNodeExcludeEachOthersThreads() throws Exception {
		assertWaiterGetsTheLockOnceReleased(this.registry, new DistlockLockRegistry(this.node));
	}

	@Test
	void twoNodesExcludeEachOther() throws Exception {
		assertWaiterGetsTheLockOnceReleased(this.registry, new DistlockLockRegistry(this.zookeeper.newNode()));
	}

	private void assertWaiterGetsTheLockOnceReleased(DistlockLockRegistry first, DistlockLockRegistry second)
			throws Exception {
		Lock lock = first.obtain("orders");
		AtomicBoolean locked = new AtomicBoolean();
		CountDownLatch waiting = new CountDownLatch(1);
		lock.lockInterruptibly();
		Future<?> waiter = this.threads.submit(() -> {
			Lock other = second.obtain("orders");
			waiting.countDown();
			other.lockInterruptibly();
			locked.set(true);
			other.unlock();
			return null;
		});
		assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
		await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2)).untilFalse(locked);
		lock.unlock();
		waiter.get(10, TimeUnit.SECONDS);
		assertThat(locked).isTrue();
	}

	@Test
	void tryLockWithoutWaitingGetsAFreeLock() throws Exception {
		for (int i = 0; i < 10; i++) {
			Lock lock = this.registry.obtain("orders");
			assertThat(lock.tryLock()).isTrue();
			lock.unlock();
		}
	}

	@Test
	void tryLockWithoutWaitingFailsOnALockHeldElsewhere() throws Exception {
		Lock lock = this.registry.obtain("orders");
		lock.lock();
		try {
			DistlockLockRegistry otherNode = new DistlockLockRegistry(this.zookeeper.newNode());
			assertThat(this.threads.submit(() -> otherNode.obtain("orders").tryLock()).get(10, TimeUnit.SECONDS))
				.isFalse();
		}
		finally {
			lock.unlock();
		}
	}

	@Test
	void executeLockedNeverRunsTwoTasksTogether() throws Exception {
		CyclicBarrier barrier = new CyclicBarrier(2);
		CountDownLatch broken = new CountDownLatch(2);
		Runnable locked = () -> {
			try {
				this.registry.executeLocked("orders", () -> {
					try {
						barrier.await(1, TimeUnit.SECONDS);
					}
					catch (BrokenBarrierException | TimeoutException ex) {
						broken.countDown();
					}
				});
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		};
		this.threads.execute(locked);
		this.threads.execute(locked);
		assertThat(broken.await(10, TimeUnit.SECONDS)).as("the tasks never met at the barrier").isTrue();
	}

	@Test
	void executeLockedTimesOutWithSpringIntegrationsMessageWhileAnotherNodeHolds() throws Exception {
		Lock lock = new DistlockLockRegistry(this.zookeeper.newNode()).obtain("orders");
		lock.lock();
		try {
			Duration wait = Duration.ofMillis(100);
			Future<?> task = this.threads.submit(() -> {
				this.registry.executeLocked("orders", wait, () -> {
					throw new AssertionError("ran without the lock");
				});
				return null;
			});
			assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
				.isThrownBy(() -> task.get(10, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(TimeoutException.class)
				.withMessage("The lock [orders] was not acquired in time: " + wait);
		}
		finally {
			lock.unlock();
		}
	}

	@Test
	void expiryNeverForgetsALockThatIsHeldOrWaitedFor() throws Exception {
		Lock lock = this.registry.obtain("orders");
		lock.lock();
		try {
			this.registry.obtain("invoices");
			this.registry.expireUnusedOlderThan(0);
			assertThat(this.registry.size()).isOne();
			assertThat(this.registry.obtain("orders")).isSameAs(lock);
			CountDownLatch started = new CountDownLatch(1);
			Future<Boolean> waiter = this.threads.submit(() -> {
				Lock waiting = this.registry.obtain("orders");
				started.countDown();
				return tryAndRelease(waiting, 10_000);
			});
			assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
			await().atMost(Duration.ofSeconds(5)).until(() -> this.node.waitingCount() == 1);
			this.registry.expireUnusedOlderThan(0);
			assertThat(this.registry.obtain("orders")).isSameAs(lock);
			lock.unlock();
			assertThat(waiter.get(10, TimeUnit.SECONDS)).isTrue();
		}
		finally {
			if (this.node.heldCount() > 0) {
				lock.unlock();
			}
		}
		this.registry.expireUnusedOlderThan(0);
		assertThat(this.registry.size()).isZero();
	}

	@Test
	void expiryKeepsWhatWasUsedMoreRecentlyThanTheAge() throws Exception {
		this.registry.obtain("orders");
		this.registry.expireUnusedOlderThan(60_000);
		assertThat(this.registry.size()).isOne();
	}

	@Test
	void aForgottenLockStillExcludesTheOneObtainedAnew() throws Exception {
		Lock forgotten = this.registry.obtain("orders");
		this.registry.expireUnusedOlderThan(0);
		forgotten.lock();
		try {
			Lock anew = this.registry.obtain("orders");
			assertThat(anew).isNotSameAs(forgotten);
			assertThat(this.threads.submit(() -> tryAndRelease(anew, 300)).get(10, TimeUnit.SECONDS)).isFalse();
		}
		finally {
			forgotten.unlock();
		}
	}

	@Test
	void newConditionIsRefusedClearly() {
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> this.registry.obtain("orders").newCondition())
			.withMessageContaining("do not support conditions");
	}

	@Test
	void lockInterruptiblyEndsOnAnInterruptAndLeavesNoLockNode() throws Exception {
		Lock held = new DistlockLockRegistry(this.zookeeper.newNode()).obtain("orders");
		held.lock();
		AtomicReference<Thread> waiter = new AtomicReference<>();
		CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
			waiter.set(Thread.currentThread());
			try {
				this.registry.obtain("orders").lockInterruptibly();
				return new AssertionError("locked");
			}
			catch (InterruptedException ex) {
				return Thread.currentThread().isInterrupted() ? new AssertionError("flag still set", ex) : ex;
			}
		}, this.threads);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.node.waitingCount() == 1);
		waiter.get().interrupt();
		assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.node.waitingCount() == 0);
		assertThat(lockNodes("orders")).as("the holder's node alone").hasSize(1);
		held.unlock();
		assertThat(this.threads.submit(() -> tryAndRelease(this.registry.obtain("orders"), 5000))
			.get(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void lockKeepsWaitingThroughAnInterruptAndKeepsTheFlag() throws Exception {
		Lock held = new DistlockLockRegistry(this.zookeeper.newNode()).obtain("orders");
		held.lock();
		AtomicReference<Thread> waiter = new AtomicReference<>();
		CompletableFuture<Boolean> interruptedWhenLocked = CompletableFuture.supplyAsync(() -> {
			waiter.set(Thread.currentThread());
			Lock lock = this.registry.obtain("orders");
			lock.lock();
			boolean interrupted = Thread.interrupted();
			lock.unlock();
			return interrupted;
		}, this.threads);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.node.waitingCount() == 1);
		waiter.get().interrupt();
		await().during(Duration.ofMillis(300))
			.atMost(Duration.ofSeconds(2))
			.until(() -> !interruptedWhenLocked.isDone() && this.node.waitingCount() == 1);
		held.unlock();
		assertThat(interruptedWhenLocked.get(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void lockContextShowsTheLockAndItsFencingTokenInsideTheSection() throws Exception {
		Lock lock = this.registry.obtain("orders");
		lock.lock();
		long first;
		try {
			assertThat(LockContext.current().isHeld()).isTrue();
			first = LockContext.current().fencingToken();
			assertThat(LockContext.current().locks()).singleElement()
				.satisfies((handle) -> assertThat(handle.path().value())
					.isEqualTo(DistlockLockRegistry.DEFAULT_ROOT + "/orders"));
		}
		finally {
			lock.unlock();
		}
		assertThat(LockContext.current().locks()).isEmpty();
		lock.lock();
		try {
			assertThat(LockContext.current().fencingToken()).isGreaterThan(first);
		}
		finally {
			lock.unlock();
		}
	}

	@Test
	void distlocksOwnApiReentersALockHeldThroughTheRegistry() throws Exception {
		Lock lock = this.registry.obtain("orders");
		lock.lock();
		try {
			this.node.mutex(DistlockLockRegistry.DEFAULT_ROOT + "/orders")
				.invoke(Duration.ZERO, () -> assertThat(this.node.heldCount()).isOne());
		}
		finally {
			lock.unlock();
		}
		assertThat(this.node.heldCount()).isZero();
	}

	@Test
	void lockLostWhileHeldIsNotReenteredAndFailsAtUnlockAsSpringIntegrationsRegistriesDo() throws Exception {
		Lock lock = this.registry.obtain("orders");
		lock.lock();
		Faults.killSession(this.node.client());
		await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !LockContext.current().isHeld());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> lock.tryLock(1, TimeUnit.SECONDS))
			.withMessageContaining("is not handed out again");
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(lock::unlock)
			.withMessageContaining("was lost while thread")
			.withMessageContaining("integrity of data protected by this lock may have been compromised");
		assertThatExceptionOfType(IllegalMonitorStateException.class).as("the lost lock was released all the same")
			.isThrownBy(lock::unlock);
		assertThat(tryAndRelease(lock, 10_000)).as("locked anew on the new session").isTrue();
	}

	@Test
	void anotherThreadTakesALostLockWhileItsOldOwnerHasNotUnlockedAndEachUnlocksItsOwn() throws Exception {
		Lock lock = this.registry.obtain("orders");
		lock.lock();
		Faults.killSession(this.node.client());
		await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !LockContext.current().isHeld());
		CountDownLatch taken = new CountDownLatch(1);
		CountDownLatch released = new CountDownLatch(1);
		Future<Object> newOwner = this.threads.submit(() -> {
			assertThat(lock.tryLock(10, TimeUnit.SECONDS)).isTrue();
			taken.countDown();
			assertThat(released.await(10, TimeUnit.SECONDS)).isTrue();
			lock.unlock();
			return null;
		});
		assertThat(taken.await(15, TimeUnit.SECONDS)).isTrue();
		assertThatExceptionOfType(ConcurrentModificationException.class).as("the old owner learns of its loss")
			.isThrownBy(lock::unlock);
		assertThat(this.node.heldCount()).as("the new owner's hold is untouched").isOne();
		released.countDown();
		newOwner.get(10, TimeUnit.SECONDS);
		assertThat(this.node.heldCount()).isZero();
	}

	@Test
	void keysAreAppendedToTheRootAsZookeeperLockRegistryAppendsThem() throws Exception {
		assertThat(nodePathOf("orders:42")).isEqualTo("SpringIntegration-LockRegistry/orders:42");
		assertThat(nodePathOf("orders/42")).isEqualTo("SpringIntegration-LockRegistry/orders/42");
		assertThat(nodePathOf("a//b")).as("no path in ZooKeeper: one escaped segment")
			.isEqualTo("SpringIntegration-LockRegistry/a%2F%2Fb");
		assertThat(nodePathOf("a%2F%2Fb")).as("a key with % is escaped too, so it cannot meet an escaped one")
			.isEqualTo("SpringIntegration-LockRegistry/a%252F%252Fb");
		assertThat(nodePathOf("..")).isEqualTo("SpringIntegration-LockRegistry/%2E%2E");
	}

	@Test
	void aRootOfItsOwnHoldsTheRegistrysLocks() throws Exception {
		DistlockLockRegistry registry = new DistlockLockRegistry(this.node, "billing/locks");
		Lock lock = registry.obtain("42");
		lock.lock();
		try {
			assertThat(LockContext.current().fencingToken(LockPath.parse("billing/locks/42"))).isPositive();
		}
		finally {
			lock.unlock();
		}
	}

	@Test
	void badKeysAndRootsAreRefusedClearly() {
		assertThatIllegalArgumentException().isThrownBy(() -> this.registry.obtain(42))
			.withMessageContaining("takes String keys")
			.withMessageContaining("java.lang.Integer");
		assertThatIllegalArgumentException().isThrownBy(() -> this.registry.obtain(""))
			.withMessageContaining("cannot lock key ''");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new DistlockLockRegistry(this.node, "/SpringIntegration-LockRegistry"))
			.withMessageContaining("write 'SpringIntegration-LockRegistry'");
	}

	private String nodePathOf(String key) throws Exception {
		Lock lock = this.registry.obtain(key);
		lock.lock();
		try {
			return LockContext.current().locks().get(0).path().value();
		}
		finally {
			lock.unlock();
		}
	}

	private List<String> lockNodes(String key) throws Exception {
		return this.node.client().getChildren().forPath("/mutex/" + DistlockLockRegistry.DEFAULT_ROOT + "/" + key);
	}

	static boolean tryAndRelease(Lock lock, long waitMillis) throws InterruptedException {
		if (lock.tryLock(waitMillis, TimeUnit.MILLISECONDS)) {
			lock.unlock();
			return true;
		}
		return false;
	}

}
