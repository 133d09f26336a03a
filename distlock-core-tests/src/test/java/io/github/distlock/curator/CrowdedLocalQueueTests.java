package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LockHandle;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The turn of a client's local queue of an exclusive lock passes over thousands of
 * acquisitions that ended meanwhile without a deep recursion. Thirty thousand
 * acquisitions load the machine: the holder's session is long and its policy
 * {@link ConnectionLossPolicy#LOST}, so that a slow heartbeat cannot take the lock away
 * from under the test (a lost hold passes its turn on by another path).
 */
class CrowdedLocalQueueTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension(NodeOptions.defaults()
		.withSessionTimeout(Duration.ofSeconds(30))
		.withConnectionLossPolicy(ConnectionLossPolicy.LOST));

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

}
