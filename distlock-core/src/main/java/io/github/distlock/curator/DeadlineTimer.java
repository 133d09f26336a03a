package io.github.distlock.curator;

import java.time.Duration;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs short actions at given instants: the deadlines of waiting acquisitions and delayed
 * releases. Deadlines are kept by this timer, never by interrupting a thread: an action
 * completes a future, or hands work to another thread, and must not block. It sends no
 * ZooKeeper request itself: Curator's background calls block their caller while the
 * connection is away, and one late action makes every deadline after it late.
 * <p>
 * One daemon thread sleeps until the earliest deadline, but at most an
 * {@linkplain #IDLE_SLEEP idle sleep} at a time, and is woken only when a new deadline is
 * due before it would wake anyway: arming and cancelling the usual deadline (seconds
 * away, cancelled a few milliseconds later when the lock is granted) is a sorted-set
 * insertion and removal, and wakes no thread.
 */
final class DeadlineTimer implements Timer, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(DeadlineTimer.class);

	/**
	 * Longest sleep of the timer thread, so that it needs no waking for far deadlines.
	 */
	static final Duration IDLE_SLEEP = Duration.ofMillis(100);

	private static final long SLOW_ACTION_NANOS = Duration.ofMillis(20).toNanos();

	/** How much earlier than the planned wake-up a new deadline must be to wake it. */
	private static final long SLACK_NANOS = Duration.ofMillis(2).toNanos();

	private final ConcurrentSkipListSet<Timeout> timeouts = new ConcurrentSkipListSet<>();

	private final AtomicLong sequence = new AtomicLong();

	private final Thread thread;

	// When the thread will wake next, in System.nanoTime() terms.
	private volatile long wakeAt;

	private volatile boolean closed;

	DeadlineTimer() {
		this.wakeAt = System.nanoTime();
		this.thread = new Thread(this::run, "distlock-timer");
		this.thread.setDaemon(true);
		this.thread.start();
	}

	/**
	 * Run the action at the given instant.
	 * @param deadlineNanos when, in {@link System#nanoTime()} terms
	 * @param action what to do; quick and non-blocking
	 * @return the timeout, to cancel it
	 */
	@Override
	public Timeout schedule(long deadlineNanos, Runnable action) {
		Timeout timeout = new Timeout(this, deadlineNanos, this.sequence.incrementAndGet(), action);
		this.timeouts.add(timeout);
		if (deadlineNanos - this.wakeAt < -SLACK_NANOS) {
			LockSupport.unpark(this.thread);
		}
		return timeout;
	}

	private void run() {
		while (!this.closed) {
			try {
				tick();
			}
			catch (RuntimeException ex) {
				// The thread keeps every deadline of its client: it must not end.
				logger.error("Deadline timer failed; it goes on", ex);
			}
		}
	}

	private void tick() {
		{
			long now = System.nanoTime();
			Timeout first;
			while ((first = firstDue(now)) != null) {
				if (this.timeouts.remove(first)) {
					long started = System.nanoTime();
					try {
						first.action.run();
					}
					catch (RuntimeException | Error ex) {
						logger.error("Deadline action failed", ex);
					}
					long took = System.nanoTime() - started;
					if (took > SLOW_ACTION_NANOS) {
						logger.warn("Deadline action took {} ms (late by {} ms); deadlines after it were late too",
								took / 1_000_000, (started - first.deadline) / 1_000_000);
					}
				}
				now = System.nanoTime();
			}
			long sleep = IDLE_SLEEP.toNanos();
			Timeout next = earliest();
			if (next != null) {
				sleep = Math.min(sleep, next.deadline - now);
			}
			this.wakeAt = now + sleep;
			// A deadline added between reading the set and publishing wakeAt may have
			// missed the unpark: look once more before sleeping.
			Timeout added = earliest();
			if (added != null && added.deadline - this.wakeAt < 0) {
				return;
			}
			LockSupport.parkNanos(this, sleep);
		}
	}

	private @Nullable Timeout firstDue(long now) {
		Timeout first = earliest();
		return (first != null && first.deadline - now <= 0) ? first : null;
	}

	/**
	 * The earliest timeout, or {@code null}. Callers cancel theirs at any time, so the
	 * set may become empty between {@code isEmpty()} and {@code first()}: the exception
	 * that {@code first()} then throws would end the timer thread, and with it every
	 * deadline of this client.
	 */
	private @Nullable Timeout earliest() {
		try {
			return this.timeouts.first();
		}
		catch (java.util.NoSuchElementException ex) {
			return null;
		}
	}

	/** Whether the calling thread is this timer's. */
	boolean isTimerThread() {
		return Thread.currentThread() == this.thread;
	}

	/** Number of pending timeouts (for tests of what is left behind). */
	int pending() {
		return this.timeouts.size();
	}

	/**
	 * Number of pending timeouts but the given one (for tests of what is left behind).
	 */
	int pendingBesides(Timer.@Nullable Scheduled scheduled) {
		int pending = this.timeouts.size();
		return (scheduled instanceof Timeout timeout && this.timeouts.contains(timeout)) ? pending - 1 : pending;
	}

	@Override
	public void close() {
		this.closed = true;
		LockSupport.unpark(this.thread);
	}

	/** One scheduled action. */
	static final class Timeout implements Timer.Scheduled, Comparable<Timeout> {

		private final DeadlineTimer timer;

		private final long deadline;

		private final long sequence;

		private final Runnable action;

		private Timeout(DeadlineTimer timer, long deadline, long sequence, Runnable action) {
			this.timer = timer;
			this.deadline = deadline;
			this.sequence = sequence;
			this.action = action;
		}

		/** Cancel the action if it has not run. */
		@Override
		public void cancel() {
			this.timer.timeouts.remove(this);
		}

		@Override
		public int compareTo(Timeout other) {
			int byDeadline = Long.compare(this.deadline - other.deadline, 0);
			return (byDeadline != 0) ? byDeadline : Long.compare(this.sequence, other.sequence);
		}

	}

}
