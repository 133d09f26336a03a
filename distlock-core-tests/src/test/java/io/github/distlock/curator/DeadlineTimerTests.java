package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The deadline timer runs each action at its instant, never a cancelled one, and keeps
 * running whatever its actions and its callers do.
 */
class DeadlineTimerTests {

	private final DeadlineTimer timer = new DeadlineTimer();

	@AfterEach
	void close() {
		this.timer.close();
	}

	@Test
	void actionsRunNotBeforeTheirDeadlineInOrder() throws Exception {
		List<Integer> order = new java.util.concurrent.CopyOnWriteArrayList<>();
		CountDownLatch done = new CountDownLatch(3);
		long now = System.nanoTime();
		long[] ranAt = new long[3];
		for (int i : new int[] { 2, 0, 1 }) {
			this.timer.schedule(now + TimeUnit.MILLISECONDS.toNanos(200 + 100L * i), () -> {
				ranAt[i] = System.nanoTime();
				order.add(i);
				done.countDown();
			});
		}
		assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(order).containsExactly(0, 1, 2);
		for (int i = 0; i < 3; i++) {
			// Never early; lateness is up to the machine, so not asserted.
			long late = ranAt[i] - (now + TimeUnit.MILLISECONDS.toNanos(200 + 100L * i));
			assertThat(late).isGreaterThanOrEqualTo(0);
		}
		assertThat(this.timer.pending()).isZero();
	}

	@Test
	void cancelledActionsNeverRun() throws Exception {
		AtomicBoolean ran = new AtomicBoolean();
		DeadlineTimer.Timeout timeout = this.timer.schedule(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100),
				() -> ran.set(true));
		timeout.cancel();
		CountDownLatch later = new CountDownLatch(1);
		this.timer.schedule(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300), later::countDown);
		assertThat(later.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(ran).isFalse();
	}

	@Test
	void aFailingActionStopsNothing() throws Exception {
		this.timer.schedule(System.nanoTime(), () -> {
			throw new IllegalStateException("failed on purpose");
		});
		CountDownLatch after = new CountDownLatch(1);
		this.timer.schedule(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50), after::countDown);
		assertThat(after.await(5, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void callersSchedulingAndCancellingAtOnceNeverStopTheTimer() throws Exception {
		AtomicBoolean stop = new AtomicBoolean();
		List<Thread> churners = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			Thread thread = new Thread(() -> {
				while (!stop.get()) {
					this.timer.schedule(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(30), () -> {
					}).cancel();
				}
			});
			thread.start();
			churners.add(thread);
		}
		AtomicInteger fired = new AtomicInteger();
		long end = System.nanoTime() + Duration.ofSeconds(2).toNanos();
		while (System.nanoTime() < end) {
			CountDownLatch tick = new CountDownLatch(1);
			this.timer.schedule(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5), () -> {
				fired.incrementAndGet();
				tick.countDown();
			});
			assertThat(tick.await(2, TimeUnit.SECONDS)).as("the timer still fires").isTrue();
		}
		stop.set(true);
		for (Thread thread : churners) {
			thread.join(5_000);
		}
		assertThat(fired.get()).isGreaterThan(10);
	}

}
