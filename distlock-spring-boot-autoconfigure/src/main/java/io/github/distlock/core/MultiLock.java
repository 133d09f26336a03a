package io.github.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Several locks taken together: all of them within one wait time, or none.
 */
public interface MultiLock {

	/** The locks, in the order they are acquired. */
	List<ClusterLock> locks();

	/**
	 * Acquire every lock, waiting at most the given time for the whole set.
	 * @param waitTime how long to wait for all of them; zero tries each once, negative
	 * waits forever
	 * @return the handle of the held locks
	 * @throws LockTimeoutException if not all were acquired in time; none is then held
	 */
	MultiLockHandle acquire(Duration waitTime);

	/**
	 * Start acquiring every lock without waiting, as
	 * {@link ClusterLock#acquireAsync(Duration)} does for one: the future completes with
	 * the handle once all are held, or with a {@link LockTimeoutException} (none held)
	 * once the wait time is over. Cancelling it abandons the attempt and releases what
	 * was taken.
	 * @param waitTime how long to wait for all of them
	 * @return the future handle
	 */
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
	CompletableFuture<MultiLockHandle> acquireAsync(Duration waitTime, LockScope scope);

	/**
	 * Acquire every lock within the given time, or none.
	 * @param waitTime how long to wait for all of them
	 * @return the handle, or empty if not all were acquired in time
	 */
	default Optional<MultiLockHandle> tryAcquire(Duration waitTime) {
		try {
			return Optional.of(acquire(waitTime));
		}
		catch (LockTimeoutException ex) {
			return Optional.empty();
		}
	}

	/**
	 * Run the action while holding every lock.
	 * @param <T> the result type
	 * @param waitTime how long to wait for all of them
	 * @param action the action
	 * @return the action's result
	 * @throws Exception whatever the action threw, or {@link LockTimeoutException}
	 */
	default <T> T execute(Duration waitTime, Callable<T> action) throws Exception {
		try (MultiLockHandle handle = acquire(waitTime)) {
			return action.call();
		}
	}

	/**
	 * Return what the action supplies, computed while holding every lock; for actions
	 * that throw no checked exception (as
	 * {@link ClusterLock#invoke(Duration, Supplier)}).
	 * @param <T> the result type
	 * @param waitTime how long to wait for all of them
	 * @param action the action
	 * @return the action's result
	 * @throws LockTimeoutException if the locks were not all acquired in time (the action
	 * did not run)
	 */
	default <T> T invoke(Duration waitTime, Supplier<T> action) {
		try (MultiLockHandle handle = acquire(waitTime)) {
			return action.get();
		}
	}

	/**
	 * Run the action while holding every lock; for actions that return nothing and throw
	 * no checked exception.
	 * @param waitTime how long to wait for all of them
	 * @param action the action
	 * @throws LockTimeoutException if the locks were not all acquired in time (the action
	 * did not run)
	 */
	default void invoke(Duration waitTime, Runnable action) {
		try (MultiLockHandle handle = acquire(waitTime)) {
			action.run();
		}
	}

}
