package io.github.distlock.curator;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DeadlineWatchdogTest {

	private final DeadlineWatchdog watchdog = new DeadlineWatchdog();

	@AfterEach
	void close() {
		this.watchdog.close();
	}

	@Test
	void tryOnceGetsAFullAttemptBeforeTheWatchdogInterrupts() {
		long start = System.nanoTime();
		DeadlineWatchdog.Watch watch = this.watchdog.arm(start, start);
		long interruptedAfter = awaitInterrupt();
		assertThat(watch.disarm()).isTrue();
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		assertThat(Duration.ofNanos(interruptedAfter - start)).isGreaterThanOrEqualTo(DeadlineWatchdog.SINGLE_ATTEMPT);
	}

	@Test
	void longerWaitsAreInterruptedShortlyAfterTheirDeadline() {
		long start = System.nanoTime();
		long deadline = start + Duration.ofMillis(1500).toNanos();
		DeadlineWatchdog.Watch watch = this.watchdog.arm(start, deadline);
		long interruptedAfter = awaitInterrupt();
		assertThat(watch.disarm()).isTrue();
		assertThat(interruptedAfter).isGreaterThanOrEqualTo(deadline + DeadlineWatchdog.GRACE.toNanos());
	}

	@Test
	void disarmedInTimeTheWatchdogLeavesTheThreadAlone() throws Exception {
		long start = System.nanoTime();
		DeadlineWatchdog.Watch watch = this.watchdog.arm(start, start);
		assertThat(watch.disarm()).isFalse();
		// Past the moment it would have fired, no interrupt arrives.
		assertThat(new CountDownLatch(1).await(DeadlineWatchdog.SINGLE_ATTEMPT.toMillis() + 300, TimeUnit.MILLISECONDS))
			.isFalse();
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
	}

	private static long awaitInterrupt() {
		try {
			new CountDownLatch(1).await(10, TimeUnit.SECONDS);
			throw new AssertionError("the watchdog did not interrupt within 10 s");
		}
		catch (InterruptedException ex) {
			long now = System.nanoTime();
			// The watch clears the flag on disarm; here the wait consumed it: restore it
			// so
			// disarm() sees the same state as after an interrupted Curator call.
			Thread.currentThread().interrupt();
			return now;
		}
	}

}
