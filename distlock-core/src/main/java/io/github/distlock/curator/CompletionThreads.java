package io.github.distlock.curator;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The threads completions run on: a few of them (one per core, at least two) while
 * completions are quick, and one more each time they all are held up for a while with
 * completions waiting behind them. A completion runs the code an application chained to
 * its acquisition, which may block (a {@code join()} on another acquisition, say): it
 * then holds up its own thread only, never the grants behind it, which would otherwise be
 * granted in ZooKeeper and never delivered, blocking their key for every node. Threads
 * beyond the few end when idle.
 * <p>
 * The deadline timer looks for a stall: a check is armed whenever completions queue up,
 * and a thread is added when none finished since the check was armed.
 */
final class CompletionThreads implements Executor {

	/**
	 * How long queued completions may see no completion finish before a thread is added.
	 */
	static final Duration STALL = Duration.ofMillis(50);

	private static final long IDLE_SECONDS = 30;

	private final ThreadPoolExecutor pool;

	private final int base;

	private final DeadlineTimer timer;

	private final AtomicLong finished = new AtomicLong();

	private final AtomicBoolean checkArmed = new AtomicBoolean();

	CompletionThreads(DeadlineTimer timer, ThreadFactory threads) {
		this.timer = timer;
		this.base = Math.max(2, Runtime.getRuntime().availableProcessors());
		this.pool = new ThreadPoolExecutor(this.base, Integer.MAX_VALUE, IDLE_SECONDS, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(), threads);
		this.pool.allowCoreThreadTimeOut(true);
	}

	@Override
	public void execute(Runnable completion) {
		this.pool.execute(() -> {
			try {
				completion.run();
			}
			finally {
				this.finished.incrementAndGet();
			}
		});
		if (!this.pool.getQueue().isEmpty()) {
			armCheck();
		}
	}

	private void armCheck() {
		if (this.checkArmed.compareAndSet(false, true)) {
			long seen = this.finished.get();
			this.timer.schedule(System.nanoTime() + STALL.toNanos(), () -> check(seen));
		}
	}

	/** On the timer thread: add a thread if the queued completions made no progress. */
	private void check(long finishedWhenArmed) {
		this.checkArmed.set(false);
		if (this.pool.getQueue().isEmpty()) {
			if (this.pool.getCorePoolSize() > this.base) {
				// Threads beyond the few end once idle.
				this.pool.setCorePoolSize(this.base);
			}
			return;
		}
		if (this.finished.get() == finishedWhenArmed && !this.pool.isShutdown()) {
			// Every thread is held up: one more takes the next completion.
			this.pool.setCorePoolSize(Math.max(this.pool.getCorePoolSize(), this.pool.getPoolSize()) + 1);
		}
		armCheck();
	}

	/** Number of threads now (for tests). */
	int threads() {
		return this.pool.getPoolSize();
	}

	/** Let the threads end once the completions queued now are done. */
	void shutdown() {
		this.pool.shutdown();
	}

}
