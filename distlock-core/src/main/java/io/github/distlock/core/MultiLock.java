package io.github.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Several locks taken together: all of them within one wait time, or none.
 */
public interface MultiLock extends Acquirable<MultiLockHandle> {

	/** The locks, in the order they are acquired. */
	List<ClusterLock> locks();

	/**
	 * Acquire every lock, waiting at most the given time for the whole set.
	 * @param waitTime how long to wait for all of them; zero tries each once, negative
	 * waits forever
	 * @return the handle of the held locks
	 * @throws LockTimeoutException if not all were acquired in time; none is then held
	 */
	@Override
	MultiLockHandle acquire(Duration waitTime);

	/**
	 * Start acquiring every lock without waiting, as
	 * {@link ClusterLock#acquireAsync(Duration)} does for one: the future completes with
	 * the handle once all are held, or with a {@link LockTimeoutException} (none held)
	 * once the wait time is over. Cancelling it abandons the acquisition and releases
	 * what was taken.
	 * @param waitTime how long to wait for all of them
	 * @return the future handle
	 */
	@Override
	default CompletableFuture<MultiLockHandle> acquireAsync(Duration waitTime) {
		return acquireAsync(waitTime, LockScope.create("multi-lock"));
	}

	/**
	 * Start acquiring every lock for the given scope without waiting, re-entering those
	 * the scope holds.
	 * @param waitTime how long to wait for all of them
	 * @param scope who holds the locks, for reentrancy and {@link LockContext}
	 * @return the future handle
	 */
	@Override
	CompletableFuture<MultiLockHandle> acquireAsync(Duration waitTime, LockScope scope);

}
