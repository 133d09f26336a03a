package io.github.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code invoke(Duration, Supplier)} and {@code invoke(Duration, Runnable)} run their
 * action under the lock, against a real ZooKeeper with a second node looking on, and
 * spare the caller a {@code throws Exception}: no test method here declares one. A
 * release is sent without waiting for ZooKeeper, so the other node's acquisition after it
 * may wait a round trip.
 */
class InvokeUnderLockTests {

	private static final Duration WAIT = Duration.ofSeconds(5);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void supplierRunsUnderTheLockAndItsValueIsReturned() {
		CuratorLocks node = this.zookeeper.newNode();
		CuratorLocks other = this.zookeeper.newNode();
		ClusterLock lock = node.mutex("invoke/supplier");
		int result = lock.invoke(WAIT, () -> {
			assertThat(lock.isHeldByCurrentThread()).isTrue();
			assertThat(other.mutex("invoke/supplier").tryAcquire(Duration.ZERO)).isEmpty();
			return 42;
		});
		assertThat(result).isEqualTo(42);
		assertThat(lock.isHeldByCurrentThread()).isFalse();
		try (LockHandle next = other.mutex("invoke/supplier").acquire(WAIT)) {
			assertThat(next.isHeld()).isTrue();
		}
	}

	@Test
	void runnableRunsUnderTheLock() {
		CuratorLocks node = this.zookeeper.newNode();
		CuratorLocks other = this.zookeeper.newNode();
		AtomicBoolean ran = new AtomicBoolean();
		node.readWrite("invoke/runnable").writeLock().invoke(WAIT, () -> {
			assertThat(other.readWrite("invoke/runnable").readLock().tryAcquire(Duration.ZERO)).isEmpty();
			ran.set(true);
		});
		assertThat(ran).isTrue();
		try (LockHandle next = other.readWrite("invoke/runnable").readLock().acquire(WAIT)) {
			assertThat(next.isHeld()).isTrue();
		}
	}

	@Test
	void actionDoesNotRunWhenTheLockIsNotAcquiredInTime() {
		CuratorLocks node = this.zookeeper.newNode();
		CuratorLocks other = this.zookeeper.newNode();
		AtomicBoolean ran = new AtomicBoolean();
		try (LockHandle held = other.mutex("invoke/taken").acquire(WAIT)) {
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> node.mutex("invoke/taken").invoke(Duration.ofMillis(200), () -> ran.set(true)));
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> node.mutex("invoke/taken").invoke(Duration.ZERO, () -> ran.getAndSet(true)));
		}
		assertThat(ran).isFalse();
	}

	@Test
	void actionsExceptionReachesTheCallerAndTheLockIsReleased() {
		CuratorLocks node = this.zookeeper.newNode();
		CuratorLocks other = this.zookeeper.newNode();
		assertThatIllegalStateException().isThrownBy(() -> node.mutex("invoke/failing").invoke(WAIT, () -> {
			throw new IllegalStateException("the action failed");
		})).withMessage("the action failed");
		try (LockHandle next = other.mutex("invoke/failing").acquire(WAIT)) {
			assertThat(next.isHeld()).isTrue();
		}
	}

	@Test
	void multiLockInvokesUnderEveryLock() {
		CuratorLocks node = this.zookeeper.newNode();
		CuratorLocks other = this.zookeeper.newNode();
		MultiLock both = node.multi(List.of(node.mutex("invoke/a"), node.mutex("invoke/b")));
		String result = both.invoke(WAIT, () -> {
			assertThat(other.mutex("invoke/a").tryAcquire(Duration.ZERO)).isEmpty();
			assertThat(other.mutex("invoke/b").tryAcquire(Duration.ZERO)).isEmpty();
			return "both";
		});
		assertThat(result).isEqualTo("both");
		AtomicBoolean ran = new AtomicBoolean();
		both.invoke(WAIT, () -> ran.set(true));
		assertThat(ran).isTrue();
		try (LockHandle a = other.mutex("invoke/a").acquire(WAIT);
				LockHandle b = other.mutex("invoke/b").acquire(WAIT)) {
			assertThat(a.isHeld() && b.isHeld()).isTrue();
		}
	}

}
