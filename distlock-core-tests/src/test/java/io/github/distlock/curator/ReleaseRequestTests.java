package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.Revoker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockNotFoundException;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.LockState;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link CuratorLockAdmin#requestRelease} is Curator's cooperative revocation, both ways:
 * it reaches a raw Curator {@code InterProcessMutex} made revocable and a distlock holder
 * that listens, and Curator's own {@code Revoker} reaches a distlock holder; a hold kept
 * for a while after its release ({@code closeAfter}, which {@code holdAtLeast} and the
 * ShedLock provider's {@code lockAtLeastFor} use) ends at once on a request.
 */
class ReleaseRequestTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void requestReleaseReachesARawCuratorMutexMadeRevocableAndReturnsItsIdentityReadBefore() throws Exception {
		CuratorLocks admin = this.zookeeper.newNode();
		CuratorFramework raw = this.zookeeper.newClient();
		InterProcessMutex mutex = new InterProcessMutex(raw, "/mutex/orders/42");
		CountDownLatch revoked = new CountDownLatch(1);
		mutex.makeRevocable((lock) -> revoked.countDown());
		mutex.acquire();
		List<LockParticipant> asked = admin.admin().requestRelease(LockPath.of("orders", "42"), LockProtocol.MUTEX);
		assertThat(asked).singleElement().satisfies((holder) -> assertThat(holder.isReleaseRequested()).isFalse());
		assertThat(revoked.await(20, TimeUnit.SECONDS)).isTrue();
		assertThat(admin.admin().locks()).singleElement()
			.satisfies((lock) -> assertThat(lock.holders()).singleElement().satisfies((holder) -> {
				assertThat(holder.isReleaseRequested()).isTrue();
				assertThat(holder.describe()).startsWith("release requested (session 0x");
			}));
		mutex.release();
	}

	@Test
	void requestReleaseReachesADistlockHolderThatListensOnceOffZooKeepersThread() throws Exception {
		CuratorLocks admin = this.zookeeper.newNode();
		CuratorLocks holder = this.zookeeper.newNode();
		LockHandle handle = holder.mutex("reports").acquire(WAIT);
		AtomicInteger told = new AtomicInteger();
		CountDownLatch asked = new CountDownLatch(1);
		handle.onReleaseRequested(() -> {
			told.incrementAndGet();
			asked.countDown();
		});
		assertThat(handle.isReleaseRequested()).isFalse();
		List<LockParticipant> holders = admin.admin().requestRelease(LockPath.parse("reports"), LockProtocol.MUTEX);
		assertThat(holders).singleElement()
			.satisfies((participant) -> assertThat(participant.identity()).containsKeys("app", "host", "pid"));
		assertThat(asked.await(20, TimeUnit.SECONDS)).isTrue();
		assertThat(handle.isReleaseRequested()).isTrue();
		assertThat(handle.state()).isEqualTo(LockState.HELD);
		// Asked again: the listener, told once, is not told again.
		admin.admin().requestRelease(LockPath.parse("reports"), LockProtocol.MUTEX);
		CountDownLatch late = new CountDownLatch(1);
		handle.onReleaseRequested(late::countDown);
		assertThat(late.await(20, TimeUnit.SECONDS)).isTrue();
		assertThat(told).hasValue(1);
		handle.close();
	}

	@Test
	void curatorsRevokerReachesADistlockHolderAndAMarkerAlreadyThereIsToldAtOnce() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode();
		CuratorFramework raw = this.zookeeper.newClient();
		LockHandle handle = holder.mutex("invoices").acquire(WAIT);
		Revoker.attemptRevoke(raw, handle.nodePath().orElseThrow());
		// Nothing listened when the marker was written: the first listener reads it.
		CountDownLatch asked = new CountDownLatch(1);
		handle.onReleaseRequested(asked::countDown);
		assertThat(asked.await(20, TimeUnit.SECONDS)).isTrue();
		handle.close();
		LockHandle next = holder.mutex("invoices").acquire(WAIT);
		CountDownLatch nextAsked = new CountDownLatch(1);
		next.onReleaseRequested(nextAsked::countDown);
		Revoker.attemptRevoke(raw, next.nodePath().orElseThrow());
		assertThat(nextAsked.await(20, TimeUnit.SECONDS)).isTrue();
		next.close();
	}

	@Test
	void aHoldKeptAfterItsReleaseEndsAtOnceWhenAsked() throws Exception {
		CuratorLocks admin = this.zookeeper.newNode();
		CuratorLocks holder = this.zookeeper.newNode();
		CuratorLocks other = this.zookeeper.newNode();
		LockHandle handle = holder.mutex("jobs/nightly").acquire(WAIT);
		handle.closeAfter(Duration.ofHours(1));
		assertThat(other.mutex("jobs/nightly").tryAcquire(Duration.ZERO)).isEmpty();
		admin.admin().requestRelease(LockPath.parse("jobs/nightly"), LockProtocol.MUTEX);
		other.mutex("jobs/nightly").acquire(WAIT).close();
	}

	@Test
	void aHoldAskedBeforeItsReleaseIsNotKeptAfterIt() throws Exception {
		CuratorLocks admin = this.zookeeper.newNode();
		CuratorLocks holder = this.zookeeper.newNode();
		CuratorLocks other = this.zookeeper.newNode();
		LockHandle handle = holder.mutex("jobs/hourly").acquire(WAIT);
		admin.admin().requestRelease(LockPath.parse("jobs/hourly"), LockProtocol.MUTEX);
		handle.closeAfter(Duration.ofHours(1));
		other.mutex("jobs/hourly").acquire(WAIT).close();
	}

	@Test
	void requestReleaseWithoutAHolderFailsAndAHoldThatDoesNotListenKeepsItsLock() throws Exception {
		CuratorLocks admin = this.zookeeper.newNode();
		assertThatExceptionOfType(LockNotFoundException.class)
			.isThrownBy(() -> admin.admin().requestRelease(LockPath.parse("nobody"), LockProtocol.MUTEX))
			.withMessageContaining("'nobody' has no holder now");
		CuratorLocks holder = this.zookeeper.newNode();
		LockHandle handle = holder.mutex("quiet").acquire(WAIT);
		admin.admin().requestRelease(LockPath.parse("quiet"), LockProtocol.MUTEX);
		await().atMost(WAIT).until(() -> admin.admin().locks().get(0).holders().get(0).isReleaseRequested());
		assertThat(handle.isReleaseRequested()).isFalse();
		assertThat(handle.state()).isEqualTo(LockState.HELD);
		handle.close();
	}

}
