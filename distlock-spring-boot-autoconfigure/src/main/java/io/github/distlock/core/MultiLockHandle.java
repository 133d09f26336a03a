package io.github.distlock.core;

import java.time.Duration;
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
	 * Give every lock up now and release them once the given time has passed, as
	 * {@link LockHandle#closeAfter(Duration)} does for one.
	 * @param delay how long to keep the locks before releasing them
	 */
	default void closeAfter(Duration delay) {
		List<LockHandle> handles = handles();
		for (int i = handles.size() - 1; i >= 0; i--) {
			handles.get(i).closeAfter(delay);
		}
	}

	/**
	 * Release every lock, in reverse order, and return a future that completes when
	 * ZooKeeper confirmed every release.
	 * @return the confirmation
	 */
	CompletableFuture<Void> closeAsync();

}
