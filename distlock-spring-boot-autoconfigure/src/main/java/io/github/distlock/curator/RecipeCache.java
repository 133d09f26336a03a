package io.github.distlock.curator;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * One recipe instance per key, shared by everybody who holds or waits for it. Curator's
 * lock recipes keep their reentrancy and holder state in the instance, so all users of
 * one path within one client must share it.
 * <p>
 * Once the last user is gone the recipe becomes idle: it is kept for the next acquisition
 * of the same path (creating a recipe costs a noticeable part of an uncontended lock
 * cycle), but at most {@code maxIdle} idle recipes are kept, so that a million distinct
 * keys do not grow the heap. When there are more, unused ones are dropped until half that
 * many are left.
 *
 * @param <R> the recipe type
 */
final class RecipeCache<R> {

	/** Idle recipes kept per lock kind by default; each takes well under 1 KB. */
	static final int DEFAULT_MAX_IDLE = 1024;

	private final ConcurrentHashMap<String, Entry<R>> entries = new ConcurrentHashMap<>();

	private final int maxIdle;

	// Changed only inside the map's atomic operations on the entry concerned.
	private final AtomicInteger idle = new AtomicInteger();

	/**
	 * Create a cache.
	 * @param maxIdle how many recipes nobody uses may be kept for reuse; 0 drops each one
	 * as soon as its last user is gone
	 */
	RecipeCache(int maxIdle) {
		this.maxIdle = maxIdle;
	}

	/**
	 * Return the entry for the key, creating it if needed, and count the caller as a
	 * user. Every call must be matched by one {@link #release(Entry)}.
	 */
	Entry<R> retain(String key, Function<String, R> factory) {
		return this.entries.compute(key, (k, existing) -> {
			if (existing == null) {
				Entry<R> created = new Entry<>(k, factory.apply(k));
				created.users = 1;
				return created;
			}
			if (existing.users++ == 0) {
				this.idle.decrementAndGet();
			}
			return existing;
		});
	}

	/**
	 * Return the recipe cached for the key, without creating one.
	 * @return the recipe, or {@code null} if none is cached
	 */
	R peek(String key) {
		Entry<R> entry = this.entries.get(key);
		return (entry != null) ? entry.recipe : null;
	}

	/**
	 * Stop counting one user of the entry; once it has none, keep it idle or drop it.
	 */
	void release(Entry<R> entry) {
		this.entries.computeIfPresent(entry.key, (k, current) -> {
			if (current != entry || --current.users > 0) {
				return current;
			}
			if (this.maxIdle == 0) {
				return null;
			}
			this.idle.incrementAndGet();
			return current;
		});
		if (this.idle.get() > this.maxIdle) {
			dropIdle();
		}
	}

	/**
	 * Drop idle entries until half the allowance is left. The scan visits the entries in
	 * use too, but happens once per {@code maxIdle / 2} releases of distinct keys.
	 */
	private void dropIdle() {
		int target = this.maxIdle / 2;
		for (String key : this.entries.keySet()) {
			if (this.idle.get() <= target) {
				return;
			}
			this.entries.computeIfPresent(key, (k, current) -> {
				if (current.users > 0) {
					return current;
				}
				this.idle.decrementAndGet();
				return null;
			});
		}
	}

	/** Number of recipes somebody holds or waits for (for tests and diagnostics). */
	int inUse() {
		return this.entries.size() - this.idle.get();
	}

	/** Number of recipes kept although nobody uses them (for tests and diagnostics). */
	int idle() {
		return this.idle.get();
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
		// fairly, so only one of them at a time waits in ZooKeeper (where every release
		// wakes every waiter).
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
