package io.github.distlock.integration;

import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockLostException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What Spring Integration users switch for, with faults injected for real: a deadline
 * kept on a silent network, a dead holder's lock moving on within the session timeout,
 * and ZooKeeper's own registry test of a server that goes down and comes back.
 */
class FaultTests {

	/** How far past its deadline an acquisition may end, whatever ZooKeeper does. */
	private static final Duration DEADLINE_SLACK = Duration.ofMillis(150);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void tryLockOnASilentNetworkReturnsFalseByItsDeadline() throws Exception {
		Lock held = new DistlockLockRegistry(this.zookeeper.newNode()).obtain("orders");
		held.lock();
		try {
			TcpRelay relay = this.zookeeper.nodes().register(new TcpRelay(this.zookeeper.server().getPort()));
			CuratorLocks cutOff = this.zookeeper.newNode(relay.getConnectString());
			assertThat(cutOff.client().blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
			Lock lock = new DistlockLockRegistry(cutOff).obtain("orders");
			relay.pause();
			long start = System.nanoTime();
			boolean locked = lock.tryLock(2, TimeUnit.SECONDS);
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			assertThat(locked).isFalse();
			assertThat(took).isLessThanOrEqualTo(Duration.ofSeconds(2).plus(DEADLINE_SLACK));
		}
		finally {
			held.unlock();
		}
	}

	@Test
	void aDeadHoldersLockGoesToAnotherNodeWithinTheSessionTimeout() throws Exception {
		CuratorLocks holderNode = this.zookeeper.newNode();
		Lock held = new DistlockLockRegistry(holderNode).obtain("orders");
		held.lock();
		Lock waiting = new DistlockLockRegistry(this.zookeeper.newNode()).obtain("orders");
		CountDownLatch started = new CountDownLatch(1);
		AtomicReference<Long> lockedAt = new AtomicReference<>();
		Future<Boolean> waiter = this.threads.submit(() -> {
			started.countDown();
			if (waiting.tryLock(30, TimeUnit.SECONDS)) {
				lockedAt.set(System.nanoTime());
				waiting.unlock();
				return true;
			}
			return false;
		});
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		Faults.killSession(holderNode.client());
		long killed = System.nanoTime();
		assertThat(waiter.get(30, TimeUnit.SECONDS)).isTrue();
		assertThat(Duration.ofNanos(lockedAt.get() - killed)).isLessThan(this.zookeeper.options().sessionTimeout());
		// The old holder learns of it once its client talks to the server again.
		await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !LockContext.current().isHeld());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(held::lock);
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(held::unlock);
	}

	/**
	 * {@code ZkLockRegistryTests.voidLockFailsWhenServerDown}: with the server down a
	 * {@code tryLock} keeps its deadline and {@code lockInterruptibly} ends on an
	 * interrupt; once it is back, locks are taken again, and a lock held across the
	 * outage is still held, which is distlock's {@link ConnectionLossPolicy#LOST} policy
	 * (under the default policy it is lost, see the next test).
	 */
	@Test
	void withTheServerDownDeadlinesAndInterruptsHoldAndAHeldLockOutlivesTheOutageUnderPolicyLost() throws Exception {
		CuratorLocks node = this.zookeeper.newNode(ConnectionLossPolicy.LOST);
		DistlockLockRegistry registry = new DistlockLockRegistry(node);
		Lock orders = registry.obtain("orders");
		orders.lock();
		this.zookeeper.server().stop();
		Lock invoices = registry.obtain("invoices");
		long start = System.nanoTime();
		assertThat(invoices.tryLock(1, TimeUnit.SECONDS)).isFalse();
		assertThat(Duration.ofNanos(System.nanoTime() - start))
			.isLessThanOrEqualTo(Duration.ofSeconds(1).plus(DEADLINE_SLACK));
		AtomicReference<Thread> waiter = new AtomicReference<>();
		Future<Throwable> interruptible = this.threads.submit(() -> {
			waiter.set(Thread.currentThread());
			try {
				registry.obtain("interruptible").lockInterruptibly();
				return null;
			}
			catch (InterruptedException ex) {
				return ex;
			}
		});
		await().atMost(Duration.ofSeconds(5)).until(() -> node.waitingCount() == 1);
		waiter.get().interrupt();
		assertThat(interruptible.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
		this.zookeeper.server().restart();
		assertThat(invoices.tryLock(10, TimeUnit.SECONDS)).isTrue();
		assertThat(orders.tryLock(1, TimeUnit.SECONDS)).as("still held across the outage").isTrue();
		orders.unlock();
		orders.unlock();
		invoices.unlock();
	}

	@Test
	void underTheDefaultPolicyALockHeldAcrossAnOutageIsLostAndReportedAtUnlock() throws Exception {
		DistlockLockRegistry registry = new DistlockLockRegistry(this.zookeeper.newNode());
		Lock orders = registry.obtain("orders");
		orders.lock();
		this.zookeeper.server().stop();
		await().pollInSameThread().atMost(Duration.ofSeconds(10)).until(() -> !LockContext.current().isHeld());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> orders.tryLock(1, TimeUnit.SECONDS));
		this.zookeeper.server().restart();
		assertThatExceptionOfType(ConcurrentModificationException.class).isThrownBy(orders::unlock);
		assertThat(DistlockLockRegistryTests.tryAndRelease(orders, 10_000)).isTrue();
	}

}
