package io.github.distlock.actuate;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

import io.github.distlock.core.LockAdmin;
import io.github.distlock.core.WaitForGraph;

/**
 * Looks for deadlocks between instances at a fixed interval: reads the cluster's wait-for
 * graph ({@link LockAdmin#waitsFor()}), keeps the number of its cycles for the
 * {@code distlock.deadlocks} gauge, and logs a WARN line naming the paths and parties of
 * a cycle once it was seen by two checks in a row (a cycle that persists, not two
 * acquisitions passing each other), once per cycle. A check that cannot read ZooKeeper
 * keeps the last count and logs at DEBUG.
 */
public final class DeadlockWatch implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(DeadlockWatch.class);

	private final LockAdmin admin;

	private final Duration interval;

	private volatile int deadlocks;

	private Set<Set<String>> previous = Set.of();

	private final Set<Set<String>> reported = new HashSet<>();

	private @Nullable ScheduledExecutorService executor;

	/**
	 * Create a watch.
	 * @param admin what reads the cluster's locks
	 * @param interval the time between two checks
	 */
	public DeadlockWatch(LockAdmin admin, Duration interval) {
		if (interval.isNegative() || interval.isZero()) {
			throw new IllegalArgumentException("The deadlock check interval must be positive, but was " + interval);
		}
		this.admin = admin;
		this.interval = interval;
	}

	/**
	 * The number of cycles the last check found.
	 * @return the deadlocks between instances seen last
	 */
	public int deadlocks() {
		return this.deadlocks;
	}

	/**
	 * Check once now.
	 * @return the cycles found
	 */
	public synchronized List<List<WaitForGraph.Edge>> check() {
		WaitForGraph graph = this.admin.waitsFor();
		List<List<WaitForGraph.Edge>> cycles = graph.cycles();
		this.deadlocks = cycles.size();
		Set<Set<String>> seen = new HashSet<>();
		for (List<WaitForGraph.Edge> cycle : cycles) {
			Set<String> key = key(cycle);
			seen.add(key);
			if (this.previous.contains(key) && this.reported.add(key)) {
				logger.warn("Deadlock between lock holders, seen by two checks " + this.interval.toMillis()
						+ " ms apart: " + describe(cycle)
						+ "; each waits for a lock the next one holds, and none goes on before a wait times out or "
						+ "a holder releases or ends");
			}
		}
		this.reported.retainAll(seen);
		this.previous = seen;
		return cycles;
	}

	private static Set<String> key(List<WaitForGraph.Edge> cycle) {
		return cycle.stream()
			.map((edge) -> edge.path() + " " + edge.waiterNode().name() + " " + edge.holderNode().name())
			.collect(Collectors.toUnmodifiableSet());
	}

	private static String describe(List<WaitForGraph.Edge> cycle) {
		return cycle.stream()
			.map((edge) -> edge.waiter().description() + " waits for " + edge.protocol().value() + " '" + edge.path()
					+ "' held by " + edge.holder().description())
			.collect(Collectors.joining("; "));
	}

	@Override
	public synchronized void start() {
		if (this.executor != null) {
			return;
		}
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "distlock-deadlocks");
			thread.setDaemon(true);
			return thread;
		});
		long millis = this.interval.toMillis();
		executor.scheduleWithFixedDelay(this::checkQuietly, millis, millis, TimeUnit.MILLISECONDS);
		this.executor = executor;
	}

	private void checkQuietly() {
		try {
			check();
		}
		catch (RuntimeException ex) {
			logger.debug("Deadlock check failed, the count stays " + this.deadlocks, ex);
		}
	}

	@Override
	public synchronized void stop() {
		ScheduledExecutorService executor = this.executor;
		this.executor = null;
		if (executor != null) {
			executor.shutdownNow();
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return this.executor != null;
	}

}
