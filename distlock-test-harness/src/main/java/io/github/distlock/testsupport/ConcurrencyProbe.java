package io.github.distlock.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;

/**
 * Wrapped around a critical section, records how many callers were inside at once, and
 * which locks each held on entry; fails with a readable report of the worst moment.
 *
 * <pre class="code">
 * ConcurrencyProbe probe = new ConcurrencyProbe("stock update");
 * // in the code under test (a test double of a collaborator, for example):
 * probe.run(() -&gt; stock.decrement(sku));
 * // in the test:
 * probe.assertNeverConcurrent();
 * probe.assertEveryCallHeld("inventory/#{#sku}");
 * </pre>
 */
public final class ConcurrencyProbe {

	private final String name;

	private final long createdNanos = System.nanoTime();

	private final List<Entry> inside = new ArrayList<>();

	private final List<Entry> entries = new ArrayList<>();

	private List<Entry> worst = List.of();

	/** A probe with a name for its reports. */
	public ConcurrencyProbe(String name) {
		this.name = name;
	}

	/** A probe named "critical section". */
	public ConcurrencyProbe() {
		this("critical section");
	}

	/**
	 * Enter the section; close the returned section to leave it.
	 * @return the section, to close
	 */
	public Section enter() {
		List<String> held = new ArrayList<>();
		for (LockHandle handle : LockContext.current().locks()) {
			held.add(handle.path().value() + " (template " + handle.path().template() + ", token "
					+ handle.fencingToken() + ")");
		}
		Entry entry = new Entry(Thread.currentThread().getName(), (System.nanoTime() - this.createdNanos) / 1_000_000,
				List.copyOf(held), templatesAndPaths());
		synchronized (this) {
			this.inside.add(entry);
			this.entries.add(entry);
			if (this.inside.size() > this.worst.size()) {
				this.worst = List.copyOf(this.inside);
			}
		}
		return () -> {
			synchronized (this) {
				this.inside.remove(entry);
			}
		};
	}

	private static List<String> templatesAndPaths() {
		List<String> names = new ArrayList<>();
		for (LockHandle handle : LockContext.current().locks()) {
			names.add(handle.path().value());
			names.add(handle.path().template());
		}
		return names;
	}

	/** Run an action inside the section. */
	public void run(Runnable action) {
		try (Section section = enter()) {
			action.run();
		}
	}

	/** Call an action inside the section. */
	public <T> T call(Callable<T> action) throws Exception {
		try (Section section = enter()) {
			return action.call();
		}
	}

	/** The most callers that were inside at once. */
	public synchronized int getMostConcurrent() {
		return this.worst.size();
	}

	/** How many times the section was entered. */
	public synchronized int getCalls() {
		return this.entries.size();
	}

	/** Forget everything recorded. */
	public synchronized void reset() {
		this.entries.clear();
		this.worst = List.copyOf(this.inside);
	}

	/**
	 * Check that never more than the given number of callers were inside at once.
	 * @param allowed how many may be inside at once
	 * @throws AssertionError naming the callers that were inside together, and the locks
	 * each held
	 */
	public synchronized void assertMostConcurrent(int allowed) {
		if (this.worst.size() > allowed) {
			StringBuilder report = new StringBuilder().append("Expected at most ")
				.append(allowed)
				.append(" caller(s) inside '")
				.append(this.name)
				.append("' at once, but ")
				.append(this.worst.size())
				.append(" were (of ")
				.append(this.entries.size())
				.append(" calls):");
			for (Entry entry : this.worst) {
				report.append("\n  ").append(entry);
			}
			throw new AssertionError(report.toString());
		}
	}

	/** Check that no two callers were ever inside at once. */
	public void assertNeverConcurrent() {
		assertMostConcurrent(1);
	}

	/**
	 * Check that every caller held the given lock when it entered.
	 * @param pathOrTemplate the lock's path or template
	 */
	public synchronized void assertEveryCallHeld(String pathOrTemplate) {
		List<Entry> without = this.entries.stream().filter((entry) -> !entry.names.contains(pathOrTemplate)).toList();
		if (this.entries.isEmpty() || !without.isEmpty()) {
			StringBuilder report = new StringBuilder().append("Expected every call of '")
				.append(this.name)
				.append("' to hold lock '")
				.append(pathOrTemplate)
				.append("', but ")
				.append(this.entries.isEmpty() ? "there was no call"
						: without.size() + " of " + this.entries.size() + " did not:");
			without.stream().limit(10).forEach((entry) -> report.append("\n  ").append(entry));
			throw new AssertionError(report.toString());
		}
	}

	@Override
	public synchronized String toString() {
		return "ConcurrencyProbe '" + this.name + "': " + this.entries.size() + " calls, at most " + this.worst.size()
				+ " at once";
	}

	/** A caller inside the section; closing it leaves. */
	@FunctionalInterface
	public interface Section extends AutoCloseable {

		@Override
		void close();

	}

	private record Entry(String thread, long atMillis, List<String> held, List<String> names) {

		@Override
		public String toString() {
			return this.thread + " entered at +" + this.atMillis + " ms holding "
					+ (this.held.isEmpty() ? "no lock" : String.join(", ", this.held));
		}

	}

}
