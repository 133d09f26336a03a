package io.github.distlock.curator;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * One recipe instance per key, kept only while somebody holds or waits for it. Curator's
 * lock recipes keep their reentrancy and holder state in the instance, so all users of
 * one path within one client must share it; once the last user is gone it is dropped, so
 * that a million distinct keys do not grow the heap.
 *
 * @param <R> the recipe type
 */
final class RecipeCache<R> {

	private final ConcurrentHashMap<String, Entry<R>> entries = new ConcurrentHashMap<>();

	/**
	 * Return the entry for the key, creating it if needed, and count the caller as a
	 * user. Every call must be matched by one {@link #release(Entry)}.
	 */
	Entry<R> retain(String key, Function<String, R> factory) {
		return this.entries.compute(key, (k, existing) -> {
			Entry<R> entry = (existing != null) ? existing : new Entry<>(k, factory.apply(k));
			entry.users++;
			return entry;
		});
	}

	/**
	 * Return the recipe cached for the key, without creating one.
	 * @return the recipe, or {@code null} if nobody holds or waits for the key
	 */
	R peek(String key) {
		Entry<R> entry = this.entries.get(key);
		return (entry != null) ? entry.recipe : null;
	}

	/** Stop counting one user of the entry; drop the entry when it was the last. */
	void release(Entry<R> entry) {
		this.entries.computeIfPresent(entry.key, (k, current) -> {
			if (current != entry) {
				return current;
			}
			return (--current.users == 0) ? null : current;
		});
	}

	/** Number of cached recipes (for tests and diagnostics). */
	int size() {
		return this.entries.size();
	}

	/**
	 * A cached recipe with its user count. The count is only touched inside the map's
	 * atomic compute operations.
	 *
	 * @param <R> the recipe type
	 */
	static final class Entry<R> {

		private final String key;

		private final R recipe;

		// Threads of this client wanting an exclusive lock on the path queue here,
		// fairly, so only
		// one of them at a time waits in ZooKeeper (where every release wakes every
		// waiter).
		private final Semaphore localQueue = new Semaphore(1, true);

		private int users;

		private Entry(String key, R recipe) {
			this.key = key;
			this.recipe = recipe;
		}

		R recipe() {
			return this.recipe;
		}

		Semaphore localQueue() {
			return this.localQueue;
		}

	}

}
