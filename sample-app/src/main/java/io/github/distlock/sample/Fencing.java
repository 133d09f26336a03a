package io.github.distlock.sample;

import java.util.OptionalLong;

import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;

/**
 * Finds the fencing token of a lock the current thread (or an asynchronous call) holds.
 */
final class Fencing {

	private Fencing() {
	}

	/**
	 * Return the fencing token of the lock the current thread holds on a path.
	 * @param path the lock path
	 * @return the token, or empty if the thread holds no lock there (locking switched off
	 * with {@code distlock.enabled=false})
	 */
	static OptionalLong tokenOf(LockPath path) {
		return tokenOf(LockContext.current(), path);
	}

	/**
	 * Return the fencing token of a lock on a path, as a lock context shows it (for
	 * asynchronous methods, whose locks belong to the call rather than the thread).
	 * @param context the locks
	 * @param path the lock path
	 * @return the token, or empty if the context holds no lock there
	 */
	static OptionalLong tokenOf(LockContext context, LockPath path) {
		return context.locks()
			.stream()
			.filter((handle) -> handle.path().equals(path))
			.mapToLong(LockHandle::fencingToken)
			.reduce((outer, inner) -> inner);
	}

	/**
	 * Return the lock path of a SKU's stock, the path that
	 * {@code @DistributedLock("inventory/#{#sku}")} resolves to.
	 * @param sku the stock keeping unit
	 * @return the path
	 */
	static LockPath inventory(String sku) {
		return LockPath.of("inventory", sku);
	}

}
