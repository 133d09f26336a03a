package io.github.distlock.core;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Held locks of a {@link MultiLock}. Closing it releases them in reverse order of
 * acquisition.
 */
public interface MultiLockHandle extends AutoCloseable {

	/**
	 * The handles of the held locks, in acquisition order; each has its own fencing
	 * token.
	 */
	List<LockHandle> handles();

	/**
	 * Release every lock, in reverse order. Every lock is released even when one fails;
	 * the first failure is thrown with the others suppressed.
	 */
	@Override
	void close();

	/**
	 * Release every lock, in reverse order, and return a future that completes when
	 * ZooKeeper confirmed every release.
	 * @return the confirmation
	 */
	CompletableFuture<Void> closeAsync();

}
