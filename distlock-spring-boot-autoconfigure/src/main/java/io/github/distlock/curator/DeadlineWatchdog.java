package io.github.distlock.curator;

import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes a wait deadline hold even when ZooKeeper does not answer. Curator's timed acquire
 * only checks its time between ZooKeeper calls, and each call may block for the whole
 * connection timeout, retries included, while the server is down. The watchdog interrupts
 * the waiting thread shortly after its deadline; the interrupt travels through Curator,
 * which then removes its node (in the background if the server is still away).
 */
final class DeadlineWatchdog implements AutoCloseable {

	/**
	 * Time given to Curator to honour the deadline itself, so the normal timeout path
	 * (which cleans up in the foreground) is taken whenever ZooKeeper answers.
	 */
	static final Duration GRACE = Duration.ofMillis(100);

	/**
	 * Shortest time the watchdog leaves a call, counted from its start: a wait time of
	 * zero means "try once", and one try is a few round trips to ZooKeeper, which a busy
	 * server or machine may stretch well past a few milliseconds.
	 */
	static final Duration SINGLE_ATTEMPT = Duration.ofSeconds(1);

	private final ScheduledThreadPoolExecutor scheduler;

	DeadlineWatchdog() {
		this.scheduler = new ScheduledThreadPoolExecutor(1, (runnable) -> {
			Thread thread = new Thread(runnable, "distlock-deadline");
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler.setRemoveOnCancelPolicy(true);
	}

	/**
	 * Arm the watchdog for the current thread. It fires {@link #GRACE} after the
	 * deadline, but never sooner than {@link #SINGLE_ATTEMPT} after the start of the
	 * call.
	 * @param startNanos when the call started, in {@link System#nanoTime()} terms
	 * @param deadlineNanos the deadline, in {@link System#nanoTime()} terms
	 * @return the armed watch, to be {@linkplain Watch#disarm() disarmed} when the wait
	 * is over
	 */
	Watch arm(long startNanos, long deadlineNanos) {
		Watch watch = new Watch(Thread.currentThread());
		long fireAt = Math.max(deadlineNanos + GRACE.toNanos(), startNanos + SINGLE_ATTEMPT.toNanos());
		long delay = fireAt - System.nanoTime();
		watch.future = this.scheduler.schedule(watch::fire, Math.max(delay, 0), TimeUnit.NANOSECONDS);
		return watch;
	}

	@Override
	public void close() {
		this.scheduler.shutdownNow();
	}

	/**
	 * One armed deadline.
	 */
	static final class Watch {

		private static final int ARMED = 0;

		private static final int FIRING = 1;

		private static final int FIRED = 2;

		private static final int DISARMED = 3;

		private final Thread thread;

		private final AtomicInteger state = new AtomicInteger(ARMED);

		private volatile ScheduledFuture<?> future;

		private Watch(Thread thread) {
			this.thread = thread;
		}

		private void fire() {
			if (this.state.compareAndSet(ARMED, FIRING)) {
				this.thread.interrupt();
				this.state.set(FIRED);
			}
		}

		/**
		 * Disarm the watch; must be called by the watched thread. If the watchdog fired,
		 * the interrupt it sent is cleared again.
		 * @return whether the watchdog fired
		 */
		boolean disarm() {
			if (this.state.compareAndSet(ARMED, DISARMED)) {
				this.future.cancel(false);
				return false;
			}
			while (this.state.get() == FIRING) {
				Thread.onSpinWait();
			}
			Thread.interrupted();
			return true;
		}

	}

}
