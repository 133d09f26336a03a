package io.github.distlock.curator;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The turn of a client's local queue of an exclusive lock passes on whatever becomes of
 * its holder (over thousands of ended acquisitions: {@link CrowdedLocalQueueTests}): at
 * once when the hold is lost, so that a waiter of the same client is not kept behind a
 * holder that does not close its lost handle (invariant 5, docs/failure-model.md). A hold
 * that lost its turn does not pass it on a second time when it is closed.
 */
class LocalTurnTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	@Test
	void waiterOfTheSameClientGetsTheLockOnceTheHoldIsLostWithoutItsHolderClosingIt() throws Exception {
		for (ConnectionLossPolicy policy : ConnectionLossPolicy.values()) {
			CuratorLocks locks = this.zookeeper.newNode(policy);
			ExecutorService holderThread = Executors.newSingleThreadExecutor();
			try {
				String path = "lost-turn-" + policy.name().toLowerCase();
				LockHandle stuck = holderThread.submit(() -> locks.mutex(path).acquire(Duration.ofSeconds(5)))
					.get(10, TimeUnit.SECONDS);
				CompletableFuture<LockHandle> waiter = locks.mutex(path).acquireAsync(Duration.ofSeconds(30));
				await().atMost(Duration.ofSeconds(5)).until(() -> locks.localQueues().waiting("/mutex/" + path) == 1);
				Faults.killSession(locks.client());
				// The holder's thread is stuck and never closes its handle; the lock
				// moves on to the next waiter of this client all the same.
				assertThat(waiter).as(policy.name()).succeedsWithin(Duration.ofSeconds(15));
				LockHandle next = waiter.join();
				assertThat(stuck.state()).isEqualTo(LockState.LOST);
				assertThat(next.isHeld()).isTrue();
				assertThat(next.fencingToken()).isGreaterThan(stuck.fencingToken());
				// Closing the lost handle later passes no turn on: a third waiter still
				// waits for the holder of the lock.
				CompletableFuture<LockHandle> third = locks.mutex(path).acquireAsync(Duration.ofSeconds(30));
				await().atMost(Duration.ofSeconds(5)).until(() -> locks.localQueues().waiting("/mutex/" + path) == 1);
				holderThread.submit(stuck::close).get(10, TimeUnit.SECONDS);
				assertThat(third).isNotDone();
				assertThat(locks.localQueues().waiting("/mutex/" + path)).isEqualTo(1);
				next.close();
				assertThat(third).succeedsWithin(Duration.ofSeconds(10));
				third.join().close();
			}
			finally {
				holderThread.shutdownNow();
			}
		}
	}

}
