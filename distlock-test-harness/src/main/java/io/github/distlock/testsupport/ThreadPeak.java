package io.github.distlock.testsupport;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * Watches the JVM's live threads while a test runs many concurrent calls: the peak number
 * of live threads above the number before, next to the peak of another measure sampled at
 * the same time (such as the number of calls waiting for a lock), so that a test can show
 * that waiting calls cost no thread each.
 */
public final class ThreadPeak implements AutoCloseable {

	private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	private final int before;

	private final IntSupplier sampled;

	private final AtomicInteger mostSampled = new AtomicInteger();

	private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "thread-peak-sampler");
		thread.setDaemon(true);
		return thread;
	});

	/**
	 * Start watching.
	 * @param sampled a measure to sample every few milliseconds along with the threads
	 */
	public ThreadPeak(IntSupplier sampled) {
		this.before = this.threads.getThreadCount();
		this.threads.resetPeakThreadCount();
		this.sampled = sampled;
		this.sampler.scheduleAtFixedRate(() -> this.mostSampled.accumulateAndGet(this.sampled.getAsInt(), Math::max), 0,
				Duration.ofMillis(5).toNanos(), TimeUnit.NANOSECONDS);
	}

	/** Live threads before watching. */
	public int before() {
		return this.before;
	}

	/** How many more live threads there were at the peak than before. */
	public int growth() {
		return this.threads.getPeakThreadCount() - this.before;
	}

	/** The largest value the sampled measure had. */
	public int mostSampled() {
		return this.mostSampled.get();
	}

	@Override
	public void close() {
		this.sampler.shutdownNow();
	}

	@Override
	public String toString() {
		return "live threads " + this.before + " before, peak +" + growth() + ", sampled measure at most "
				+ mostSampled();
	}

}
