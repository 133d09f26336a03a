package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockHandle;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Suspicion, proven: a hold lost after it was handed to its holder but before every event
 * listener was told it was acquired had its loss reported (on the loss-report thread)
 * while the acquired event was still being told, so a listener could hear "lost" before
 * "acquired". The first listener here holds the delivering thread in its {@code acquired}
 * while the session is expired: the second listener must still hear acquired, then lost,
 * then released.
 */
class LossBeforeAcquiredTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	@Test
	void aHoldLostWhileItsAcquisitionIsToldIsReportedLostAfterAcquired() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode(ConnectionLossPolicy.SUSPENDED);
		List<String> second = new CopyOnWriteArrayList<>();
		AtomicBoolean expire = new AtomicBoolean(true);
		locks.addEventListener((kind, path) -> new LockEventListener.AcquisitionListener() {

			@Override
			public void acquired(long fencingToken) {
				if (!expire.getAndSet(false)) {
					return;
				}
				try {
					Faults.expireSession(locks.client());
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
				// Wait, for a bounded time, for the loss to reach the other listener
				// before it hears that the lock was acquired: it must not.
				try {
					await().atMost(Duration.ofSeconds(5)).until(() -> second.contains("lost"));
				}
				catch (org.awaitility.core.ConditionTimeoutException ex) {
					// The loss waits for this event: as it must.
				}
			}

		});
		locks.addEventListener((kind, path) -> new LockEventListener.AcquisitionListener() {

			@Override
			public void acquired(long fencingToken) {
				second.add("acquired");
			}

			@Override
			public void lost() {
				second.add("lost");
			}

			@Override
			public void released() {
				second.add("released");
			}

		});
		LockHandle held = locks.mutex("lost-while-told").acquire(Duration.ofSeconds(5));
		await().atMost(Duration.ofSeconds(10)).until(() -> second.contains("lost"));
		held.close();
		assertThat(second).containsExactly("acquired", "lost", "released");
	}

}
