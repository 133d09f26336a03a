package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
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
 * its holder: over thousands of acquisitions that ended meanwhile without a deep
 * recursion, and at once when the hold is lost, so that a waiter of the same client is
 * not kept behind a holder that does not close its lost handle (invariant 5,
 * docs/failure-model.md). A hold that lost its turn does not pass it on a second time
 * when it is closed.
 */
class LocalTurnTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	@Test
	void turnPassesOverThousandsOfEndedAttemptsWithoutDeepRecursion() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		LockHandle held = locks.mutex("crowded").acquire(Duration.ofSeconds(5));
		CountDownLatch blocked = new CountDownLatch(1);
		CountDownLatch unblock = new CountDownLatch(1);
		// Holds up the request thread, where the ends of timed-out acquisitions run: they
		// time out, but are still in the local queue when the holder releases.
		locks.threads().request(() -> {
			blocked.countDown();
			try {
				unblock.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		try {
			assertThat(blocked.await(5, TimeUnit.SECONDS)).isTrue();
			List<CompletableFuture<LockHandle>> waiters = new ArrayList<>();
			for (int i = 0; i < 30_000; i++) {
				waiters.add(locks.mutex("crowded").acquireAsync(Duration.ofMillis(300)));
			}
			for (CompletableFuture<LockHandle> waiter : waiters) {
				assertThat(waiter).failsWithin(Duration.ofSeconds(60));
			}
			assertThat(locks.localQueues().waiting("/mutex/crowded")).isEqualTo(30_000);
			// Released on a thread with the usual stack size (the test's main thread may
			// have a larger one).
			CompletableFuture.runAsync(held::close, Executors.newSingleThreadExecutor()).get(30, TimeUnit.SECONDS);
		}
		finally {
			unblock.countDown();
		}
		// The turn was passed on, not stranded: the key is free for this client.
		try (LockHandle next = locks.mutex("crowded").acquire(Duration.ofSeconds(5))) {
			assertThat(next.isHeld()).isTrue();
		}
		await().atMost(Duration.ofSeconds(30)).until(() -> locks.leftovers() == 0);
	}

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
