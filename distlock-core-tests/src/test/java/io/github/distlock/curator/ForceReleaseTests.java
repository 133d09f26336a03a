package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockHolderChangedException;
import io.github.distlock.core.LockLostException;
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
 * {@link CuratorLockAdmin#forceRelease} removes the holder with the given token behind
 * its fence: the fence stores are advanced first, the node deleted after; the old holder
 * learns it lost the lock (its handle lost, its loss reported, its guarded writes
 * refused, the lock never handed out again here through it) and a waiter gets the lock.
 */
class ForceReleaseTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void theOldHolderLosesItsLockAfterTheFenceAndAWaiterGetsIt() throws Exception {
		CuratorLocks admin = this.zookeeper.newNode();
		CuratorLocks holder = this.zookeeper.newNode();
		CuratorLocks waiter = this.zookeeper.newNode();
		CountDownLatch lostTold = new CountDownLatch(1);
		holder.addEventListener((kind, path) -> new LockEventListener.AcquisitionListener() {
			@Override
			public void lost() {
				lostTold.countDown();
			}
		});
		List<String> events = new ArrayList<>();
		admin.addFenceStore((protocol, path, token) -> events.add("fence " + protocol + " " + path + " " + token));
		LockHandle handle = holder.mutex("orders/7").acquire(WAIT);
		CompletableFuture<LockHandle> next = waiter.mutex("orders/7").acquireAsync(Duration.ofSeconds(30));
		await().atMost(WAIT).until(() -> admin.admin().locks().get(0).queue().participants().size() == 2);
		LockParticipant removed = admin.admin()
			.forceRelease(LockPath.parse("orders/7"), LockProtocol.MUTEX, handle.fencingToken());
		assertThat(removed.fencingToken()).isEqualTo(handle.fencingToken());
		assertThat(events).containsExactly("fence MUTEX orders/7 " + handle.fencingToken());
		assertThat(lostTold.await(20, TimeUnit.SECONDS)).isTrue();
		assertThat(handle.state()).isEqualTo(LockState.LOST);
		assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::assertHeld);
		LockHandle taken = next.get(20, TimeUnit.SECONDS);
		assertThat(taken.fencingToken()).isGreaterThan(handle.fencingToken());
		CuratorFramework client = holder.client();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> new GuardedWrites(client).commit(handle,
				client.transactionOp().create().forPath("/written-by-the-old-holder")));
		// The lost hold is never entered again; once closed, a new acquisition of this
		// instance waits for the new holder.
		assertThatExceptionOfType(LockLostException.class)
			.isThrownBy(() -> holder.mutex("orders/7").tryAcquire(Duration.ZERO))
			.withMessageContaining("is LOST");
		handle.close();
		assertThat(holder.mutex("orders/7").tryAcquire(Duration.ZERO)).isEmpty();
		taken.close();
		holder.mutex("orders/7").acquire(WAIT).close();
	}

	@Test
	void aWrongTokenRemovesNothingAndANeverHeldPathIsNotFound() throws Exception {
		CuratorLocks admin = this.zookeeper.newNode();
		CuratorLocks holder = this.zookeeper.newNode();
		List<Long> fenced = new ArrayList<>();
		admin.addFenceStore((protocol, path, token) -> fenced.add(token));
		LockHandle handle = holder.mutex("ledger").acquire(WAIT);
		assertThatExceptionOfType(LockHolderChangedException.class)
			.isThrownBy(() -> admin.admin()
				.forceRelease(LockPath.parse("ledger"), LockProtocol.MUTEX, handle.fencingToken() - 1))
			.withMessageContaining("no holder of mutex lock 'ledger' has fencing token");
		assertThatExceptionOfType(LockNotFoundException.class)
			.isThrownBy(() -> admin.admin().forceRelease(LockPath.parse("nobody"), LockProtocol.MUTEX, 1));
		assertThat(fenced).isEmpty();
		assertThat(admin.admin().locks()).singleElement()
			.satisfies((lock) -> assertThat(lock.holders()).singleElement()
				.satisfies((participant) -> assertThat(participant.fencingToken()).isEqualTo(handle.fencingToken())));
		assertThat(handle.state()).isEqualTo(LockState.HELD);
		handle.close();
	}

	@Test
	void aFenceStoreThatCannotBeWrittenRefusesTheRemoval() throws Exception {
		CuratorLocks admin = this.zookeeper.newNode();
		CuratorLocks holder = this.zookeeper.newNode();
		admin.addFenceStore((protocol, path, token) -> {
			throw new IllegalStateException("database down");
		});
		LockHandle handle = holder.mutex("ledger").acquire(WAIT);
		assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(
				() -> admin.admin().forceRelease(LockPath.parse("ledger"), LockProtocol.MUTEX, handle.fencingToken()))
			.withMessageContaining("so the holder was not removed")
			.withMessageContaining("database down");
		assertThat(admin.admin().locks()).singleElement().satisfies((lock) -> assertThat(lock.holders()).hasSize(1));
		assertThat(handle.state()).isEqualTo(LockState.HELD);
		handle.close();
	}

	@Test
	void aRawCuratorHolderIsRemovedAndADistlockWaiterGetsTheLock() throws Exception {
		CuratorLocks admin = this.zookeeper.newNode();
		CuratorFramework raw = this.zookeeper.newClient();
		InterProcessMutex mutex = new InterProcessMutex(raw, "/mutex/stock");
		mutex.acquire();
		long token = admin.admin().locks().get(0).holders().get(0).fencingToken();
		CompletableFuture<LockHandle> next = admin.mutex("stock").acquireAsync(Duration.ofSeconds(30));
		admin.admin().forceRelease(LockPath.parse("stock"), LockProtocol.MUTEX, token);
		LockHandle taken = next.get(20, TimeUnit.SECONDS);
		assertThat(taken.fencingToken()).isGreaterThan(token);
		taken.close();
	}

	@Test
	void onlyTheHoldWhoseNodeWasRemovedIsLost() throws Exception {
		CuratorLocks admin = this.zookeeper.newNode();
		CuratorLocks holder = this.zookeeper.newNode();
		LockHandle first = holder.mutex("a").acquire(WAIT);
		LockHandle second = holder.mutex("b").acquire(WAIT);
		admin.admin().forceRelease(LockPath.parse("a"), LockProtocol.MUTEX, first.fencingToken());
		await().atMost(WAIT).until(() -> first.state() == LockState.LOST);
		assertThat(second.state()).isEqualTo(LockState.HELD);
		first.close();
		second.close();
	}

}
