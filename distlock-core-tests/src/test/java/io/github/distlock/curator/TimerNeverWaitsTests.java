package io.github.distlock.curator;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The deadline timer decides a timeout and goes on: it never waits for an acquisition's
 * monitor (held by a ZooKeeper or Curator thread that is itself waiting, as Curator's
 * background calls do while the connection is away) and sends no request itself, so one
 * stuck acquisition makes no other deadline late, nor its own.
 */
class TimerNeverWaitsTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void anAttemptWhoseMonitorIsTakenDelaysNoDeadline() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode();
		CuratorLocks waiter = this.zookeeper.newNode();
		try (LockHandle first = holder.mutex("timer/stuck").acquire(Duration.ofSeconds(5));
				LockHandle second = holder.semaphore("timer/other", 1).acquire(Duration.ofSeconds(5))) {
			long start = System.nanoTime();
			CompletableFuture<LockHandle> stuck = waiter.mutex("timer/stuck").acquireAsync(Duration.ofMillis(1000));
			CompletableFuture<LockHandle> other = waiter.semaphore("timer/other", 1)
				.acquireAsync(Duration.ofMillis(1200));
			await().atMost(Duration.ofSeconds(5))
				.until(() -> holder.client().getChildren().forPath("/mutex/timer/stuck").size() == 2);
			Acquisition attempt = waiter.acquisitions()
				.stream()
				.filter((candidate) -> candidate.path().value().equals("timer/stuck"))
				.findFirst()
				.orElseThrow();
			long stuckGaveUp;
			long otherGaveUp;
			// A thread keeps the acquisition's monitor past both deadlines.
			synchronized (attempt) {
				// Both give up while the monitor is still taken: a timer that waited
				// for it would never fail them.
				stuckGaveUp = millisToTimeout(stuck, start);
				otherGaveUp = millisToTimeout(other, start);
			}
			System.out.println("[measure] one acquisition's monitor held past its deadline: it gave up after "
					+ stuckGaveUp + " ms (wait 1000 ms), another after " + otherGaveUp + " ms (wait 1200 ms)");
			assertThat(stuckGaveUp).isGreaterThanOrEqualTo(1000L);
			assertThat(otherGaveUp).isGreaterThanOrEqualTo(1200L);
			// Once the monitor is free, the abandoned node goes.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> holder.client().getChildren().forPath("/mutex/timer/stuck").size() == 1);
			await().atMost(Duration.ofSeconds(10)).until(() -> waiter.waitingCount() == 0);
		}
		try (LockHandle next = waiter.mutex("timer/stuck").acquire(Duration.ofSeconds(5))) {
			assertThat(next.isHeld()).isTrue();
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> waiter.leftovers() == 0);
	}

	private static long millisToTimeout(CompletableFuture<LockHandle> future, long start) {
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> future.get(3, TimeUnit.SECONDS))
			.withCauseInstanceOf(LockTimeoutException.class);
		return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
	}

}
