package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockState;
import io.github.distlock.core.NoLockHeldException;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What a holder learns when its connection or session goes, and how a release behaves
 * while ZooKeeper is away.
 */
class ConnectionLossTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void holderWhoseSessionExpiresIsToldAndAnotherNodeTakesOver() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode(ConnectionLossPolicy.SUSPENDED);
		CuratorLocks other = this.zookeeper.newNode(ConnectionLossPolicy.SUSPENDED);
		List<HeldLock> lost = new java.util.concurrent.CopyOnWriteArrayList<>();
		holder.addLossListener(lost::add);
		LockHandle handle = holder.mutex("orders/1").acquire(Duration.ofSeconds(5));
		assertThat(LockContext.current().isHeld()).isTrue();
		assertThat(holder.heldLocks()).singleElement().satisfies((held) -> {
			assertThat(held.path().value()).isEqualTo("orders/1");
			assertThat(held.fencingToken()).isEqualTo(handle.fencingToken());
			assertThat(held.holder()).isEqualTo(Thread.currentThread().getName());
		});

		Faults.expireSession(holder.client());

		await().atMost(Duration.ofSeconds(10)).until(() -> handle.state() == LockState.LOST);
		// Told on distlock's event thread, once.
		await().atMost(Duration.ofSeconds(5)).until(() -> !lost.isEmpty());
		assertThat(lost).singleElement().extracting(HeldLock::fencingToken).isEqualTo(handle.fencingToken());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> LockContext.current().assertHeld())
			.withMessageContaining("'orders/1' (LOST)");
		assertThatExceptionOfType(LockLostException.class).isThrownBy(handle::assertHeld);
		try (LockHandle successor = other.mutex("orders/1").acquire(Duration.ofSeconds(10))) {
			assertThat(successor.fencingToken()).isGreaterThan(handle.fencingToken());
		}
		handle.close();
		assertThat(holder.heldLocks()).isEmpty();
		assertThat(LockContext.current().locks()).isEmpty();
		// The stale holder can lock again once its client has a new session.
		try (LockHandle again = holder.mutex("orders/1").acquire(Duration.ofSeconds(10))) {
			assertThat(again.isHeld()).isTrue();
		}
	}

	@Test
	void holdIsLostWhenItsSessionEndsEvenWithoutAConnectionStateEvent() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode(ConnectionLossPolicy.LOST);
		List<HeldLock> lost = new java.util.concurrent.CopyOnWriteArrayList<>();
		holder.addLossListener(lost::add);
		LockHandle handle = holder.mutex("silent-expiry").acquire(Duration.ofSeconds(5));
		holder.ignoreConnectionStateEvents();
		long session = holder.client().getZookeeperClient().getZooKeeper().getSessionId();

		Faults.expireSession(holder.client());
		await().atMost(Duration.ofSeconds(10))
			.until(() -> holder.client().getZookeeperClient().isConnected()
					&& holder.client().getZookeeperClient().getZooKeeper().getSessionId() != session);

		assertThat(handle.state()).isEqualTo(LockState.LOST);
		// Loss reports are delivered by distlock's event thread, not the caller's.
		await().atMost(Duration.ofSeconds(5)).until(() -> !lost.isEmpty());
		assertThat(lost).singleElement().extracting(HeldLock::fencingToken).isEqualTo(handle.fencingToken());
		assertThat(holder.heldLocks()).singleElement().extracting(HeldLock::state).isEqualTo(LockState.LOST);
		handle.close();
	}

	@Test
	void suspendedConnectionCountsAsLostByDefaultEvenIfItReturns() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode(ConnectionLossPolicy.SUSPENDED);
		LockHandle handle = holder.mutex("suspended").acquire(Duration.ofSeconds(5));
		this.zookeeper.server().stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> handle.state() == LockState.LOST);
		this.zookeeper.server().restart();
		await().atMost(Duration.ofSeconds(10)).until(() -> holder.client().getZookeeperClient().isConnected());
		assertThat(handle.state()).isEqualTo(LockState.LOST);
		handle.close();
	}

	@Test
	void underTheLostPolicyASuspendedLockIsInDoubtAndHeldAgainWhenTheSessionSurvives() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode(ConnectionLossPolicy.LOST);
		LockHandle handle = holder.mutex("in-doubt").acquire(Duration.ofSeconds(5));
		this.zookeeper.server().stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> handle.state() == LockState.IN_DOUBT);
		assertThat(handle.isHeld()).isFalse();
		this.zookeeper.server().restart();
		await().atMost(Duration.ofSeconds(10)).until(() -> handle.state() == LockState.HELD);
		handle.close();
		assertThat(handle.state()).isEqualTo(LockState.RELEASED);
	}

	@Test
	void releaseWhileZooKeeperIsDownReturnsAtOnceAndTheNodeGoesWhenItIsBack() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode(ConnectionLossPolicy.SUSPENDED);
		CuratorLocks other = this.zookeeper.newNode(ConnectionLossPolicy.SUSPENDED);
		LockHandle handle = holder.mutex("release-offline").acquire(Duration.ofSeconds(5));
		this.zookeeper.server().stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> !holder.client().getZookeeperClient().isConnected());
		long start = System.nanoTime();
		handle.close();
		// It did not wait for ZooKeeper: a blocking delete would take the connection
		// timeout (3 s) or more.
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
		assertThat(handle.state()).isEqualTo(LockState.RELEASED);
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		assertThat(holder.leftovers()).isZero();
		this.zookeeper.server().restart();
		// Curator's background delete removes the node once the connection is back.
		await().atMost(Duration.ofSeconds(15))
			.until(() -> other.client().getChildren().forPath("/mutex/release-offline").isEmpty());
		try (LockHandle next = holder.mutex("release-offline").acquire(Duration.ofSeconds(10))) {
			assertThat(next.isHeld()).isTrue();
		}
		try (LockHandle fromOther = other.mutex("release-offline").acquire(Duration.ofSeconds(10))) {
			assertThat(fromOther.isHeld()).isTrue();
		}
	}

	@Test
	void lockContextListsTheCurrentThreadsLocksOutermostFirst() {
		CuratorLocks locks = this.zookeeper.newNode(ConnectionLossPolicy.SUSPENDED);
		assertThat(LockContext.current().isHeld()).isFalse();
		try (LockHandle outer = locks.mutex("outer").acquire(Duration.ofSeconds(5));
				LockHandle inner = locks.readWrite("inner").writeLock().acquire(Duration.ofSeconds(5))) {
			LockContext context = LockContext.current();
			assertThat(context.locks()).containsExactly(outer, inner);
			assertThat(context.fencingToken()).isEqualTo(inner.fencingToken());
			assertThat(context.fencingToken(outer.path())).isEqualTo(outer.fencingToken());
			context.assertHeld();
		}
		assertThat(LockContext.current().locks()).isEmpty();
		assertThatExceptionOfType(NoLockHeldException.class).isThrownBy(() -> LockContext.current().assertHeld())
			.withMessageStartingWith("No distlock lock is held by " + Thread.currentThread().getName() + ":")
			.withMessageContaining("never taken");
	}

}
