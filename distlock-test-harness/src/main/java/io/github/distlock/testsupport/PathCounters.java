package io.github.distlock.testsupport;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counters per lock path that only stay exact under mutual exclusion: a critical section
 * {@linkplain #enter enters} (reading the counter), takes its time, possibly on other
 * threads, and {@linkplain #leave leaves} (writing what it read plus one), so two
 * sections inside one path at once lose an increment. Also records how many sections were
 * ever inside one path at once, and the names of the threads sections entered on. Shared
 * by the nodes (application contexts) of one test, which stand for the instances of a
 * cluster writing to one database.
 */
public final class PathCounters {

	private final Map<String, Counter> counters = new ConcurrentHashMap<>();

	private final AtomicInteger mostInsideOnePath = new AtomicInteger();

	private final AtomicInteger entries = new AtomicInteger();

	private final Set<String> threads = ConcurrentHashMap.newKeySet();

	/**
	 * Enter the critical section of a path.
	 * @return the counter's value, to be written back plus one by {@link #leave}
	 */
	public int enter(String path) {
		Counter counter = this.counters.computeIfAbsent(path, (key) -> new Counter());
		this.mostInsideOnePath.accumulateAndGet(counter.inside.incrementAndGet(), Math::max);
		this.entries.incrementAndGet();
		this.threads.add(Thread.currentThread().getName());
		return counter.value;
	}

	/**
	 * Leave the critical section of a path, writing the counter.
	 * @param read what {@link #enter} gave
	 * @return the value written
	 */
	public int leave(String path, int read) {
		Counter counter = this.counters.get(path);
		counter.value = read + 1;
		counter.inside.decrementAndGet();
		return read + 1;
	}

	/** Leave a critical section without writing (its work was cancelled). */
	public void abandon(String path) {
		this.counters.get(path).inside.decrementAndGet();
	}

	/** The counter of a path. */
	public int value(String path) {
		Counter counter = this.counters.get(path);
		return (counter != null) ? counter.value : 0;
	}

	/** The sum of all counters. */
	public int total() {
		return this.counters.values().stream().mapToInt((counter) -> counter.value).sum();
	}

	/** How many sections entered, all paths together. */
	public int entries() {
		return this.entries.get();
	}

	/** The most sections ever inside one path at once: 1 when the lock works. */
	public int mostInsideOnePath() {
		return this.mostInsideOnePath.get();
	}

	/** Names of the threads sections entered on. */
	public Set<String> threads() {
		return Set.copyOf(this.threads);
	}

	private static final class Counter {

		private final AtomicInteger inside = new AtomicInteger();

		// Read and written by sections on any thread; only the lock keeps it exact.
		private volatile int value;

	}

}
