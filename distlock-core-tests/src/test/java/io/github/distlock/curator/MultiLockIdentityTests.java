package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockReentryException;
import io.github.distlock.core.LockScope;
import io.github.distlock.core.MultiLock;
import io.github.distlock.core.MultiLockHandle;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ForwardingLock;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A multi-lock takes each lock once, whatever kinds it was asked with, and a cancellation
 * is never lost between two of its steps.
 */
class MultiLockIdentityTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void bothKindsOfMutexAtOnePathAreTakenOnceWithoutReentrancy() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		MultiLock multi = locks.multi(List.of(locks.mutex("a"), locks.nonReentrantMutex("a"), locks.mutex("b")));
		assertThat(multi.locks()).extracting(ClusterLock::kind).containsExactly(LockKind.MUTEX, LockKind.MUTEX);
		assertThat(multi.locks()).extracting(ClusterLock::isReentrant).containsExactly(false, true);
		try (MultiLockHandle handle = multi.acquire(Duration.ofSeconds(5))) {
			assertThat(handle.handles()).hasSize(2);
			assertThat(Faults.children(locks.client(), "/mutex/a")).hasSize(1);
			assertThatExceptionOfType(LockReentryException.class)
				.isThrownBy(() -> locks.mutex("a").acquire(Duration.ofSeconds(1)));
		}
	}

	@Test
	void bothSidesOfAReadWriteLockAreTakenAsTheWriteSide() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		MultiLock multi = locks.multi(List.of(locks.readWrite("doc").readLock(), locks.readWrite("doc").writeLock()));
		assertThat(multi.locks()).extracting(ClusterLock::kind).containsExactly(LockKind.WRITE);
		try (MultiLockHandle handle = multi.acquire(Duration.ofSeconds(5))) {
			assertThat(handle.handles()).singleElement().extracting(LockHandle::kind).isEqualTo(LockKind.WRITE);
			assertThat(Faults.children(locks.client(), "/rw/doc")).singleElement()
				.asString()
				.contains(QueueDriver.WRITE_NAME);
		}
	}

	@Test
	void cancellationBetweenTwoStepsAbandonsTheSecondStep() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		CuratorLocks holder = this.zookeeper.newNode();
		try (LockHandle taken = holder.mutex("second").acquire(Duration.ofSeconds(5))) {
			AtomicReference<CompletableFuture<MultiLockHandle>> whole = new AtomicReference<>();
			ClusterLock second = locks.mutex("second");
			// The whole acquisition is cancelled while its second step starts.
			ClusterLock cancelling = new ForwardingLock(second) {

				@Override
				public CompletableFuture<LockHandle> acquireAsync(Duration waitTime, LockScope scope) {
					await().atMost(Duration.ofSeconds(5)).until(() -> whole.get() != null);
					whole.get().cancel(false);
					return super.acquireAsync(waitTime, scope);
				}

			};
			whole.set(locks.multi(List.of(locks.mutex("first"), cancelling))
				.acquireAsync(Duration.ofMillis(-1), LockScope.create("cancelled")));
			await().atMost(Duration.ofSeconds(5)).until(() -> whole.get().isCancelled());
			await().atMost(Duration.ofSeconds(5)).until(() -> locks.waitingCount() == 0);
			await().atMost(Duration.ofSeconds(5))
				.until(() -> Faults.children(holder.client(), "/mutex/second").size() == 1
						&& Faults.children(holder.client(), "/mutex/first").isEmpty());
		}
	}

}
