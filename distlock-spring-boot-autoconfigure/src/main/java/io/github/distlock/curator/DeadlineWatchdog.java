package io.github.distlock.curator;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Makes a wait deadline hold even when ZooKeeper does not answer. Curator's timed acquire
 * only checks its time between ZooKeeper calls, and each call may block for the whole
 * connection timeout, retries included, while the server is down. The watchdog interrupts
 * the waiting thread shortly after its deadline; the interrupt travels through Curator,
 * which then removes its node (in the background if the server is still away).
 * <p>
 * One daemon thread scans the armed watches on a tick, so arming and disarming are only a
 * set insertion and removal: no thread is woken per acquisition (a scheduled task per
 * call costs context switches on every lock and release).
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

	/** How often armed watches are checked; a watch fires at most this late. */
	static final Duration TICK = Duration.ofMillis(25);

	/**
	 * How long the scanner sleeps while nothing is armed. Every watch fires at least
	 * {@link #SINGLE_ATTEMPT} after it was armed, which is longer, so it is never late
	 * for more than a {@link #TICK}.
	 */
	private static final Duration IDLE_TICK = Duration.ofMillis(250);

	private final Set<Watch> armed = ConcurrentHashMap.newKeySet();

	private final Thread scanner;

	private volatile boolean closed;

	DeadlineWatchdog() {
		this.scanner = new Thread(this::scan, "distlock-deadline");
		this.scanner.setDaemon(true);
		this.scanner.start();
	}

	private void scan() {
		while (!this.closed) {
			LockSupport.parkNanos(this.armed.isEmpty() ? IDLE_TICK.toNanos() : TICK.toNanos());
			long now = System.nanoTime();
			for (Watch watch : this.armed) {
				if (now - watch.fireAt >= 0) {
					watch.fire();
					this.armed.remove(watch);
				}
			}
		}
	}

	/**
	 * Arm the watchdog for the current thread. It fires {@link #GRACE} after the
	 * deadline, but never sooner than {@link #SINGLE_ATTEMPT} after the start of the
	 * call, and at most a {@link #TICK} later than that.
	 * @param startNanos when the call started, in {@link System#nanoTime()} terms
	 * @param deadlineNanos the deadline, in {@link System#nanoTime()} terms
	 * @return the armed watch, to be {@linkplain Watch#disarm() disarmed} when the wait
	 * is over
	 */
	Watch arm(long startNanos, long deadlineNanos) {
		long fireAt = Math.max(deadlineNanos + GRACE.toNanos(), startNanos + SINGLE_ATTEMPT.toNanos());
		Watch watch = new Watch(this, Thread.currentThread(), fireAt);
		this.armed.add(watch);
		return watch;
	}

	@Override
	public void close() {
		this.closed = true;
		LockSupport.unpark(this.scanner);
	}

	/**
	 * One armed deadline.
	 */
	static final class Watch {

		private static final int ARMED = 0;

		private static final int FIRING = 1;

		private static final int FIRED = 2;

		private static final int DISARMED = 3;

		private final DeadlineWatchdog watchdog;

		private final Thread thread;

		private final long fireAt;

		private final AtomicInteger state = new AtomicInteger(ARMED);

		private Watch(DeadlineWatchdog watchdog, Thread thread, long fireAt) {
			this.watchdog = watchdog;
			this.thread = thread;
			this.fireAt = fireAt;
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
				this.watchdog.armed.remove(this);
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
