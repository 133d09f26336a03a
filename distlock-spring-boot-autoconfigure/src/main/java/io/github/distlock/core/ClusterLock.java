package io.github.distlock.core;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * One lock in the cluster, at one path. Obtained from {@link Locks}; cheap to obtain, so
 * callers need not keep it. All acquisitions honour their wait time even while ZooKeeper
 * is unreachable.
 * <p>
 * Wait times: {@link Duration#ZERO} tries once, a negative duration waits forever.
 */
public interface ClusterLock {

	/** Path of this lock relative to the lock root. */
	LockPath path();

	/** Kind of this lock. */
	LockKind kind();

	/**
	 * Acquire the lock, waiting at most the given time.
	 * @param waitTime how long to wait; zero tries once, negative waits forever
	 * @return the handle of the held lock
	 * @throws LockTimeoutException if the lock was not acquired in time, also when
	 * ZooKeeper was unreachable
	 * @throws LockReentryException if the lock is not reentrant and the current thread
	 * holds it
	 * @throws LockAcquisitionException if ZooKeeper failed or the thread was interrupted
	 */
	LockHandle acquire(Duration waitTime);

	/**
	 * Acquire the lock within the given time, or return an empty optional.
	 * @param waitTime how long to wait; zero tries once, negative waits forever
	 * @return the handle of the held lock, or empty if it was not acquired in time
	 * @throws LockReentryException if the lock is not reentrant and the current thread
	 * holds it
	 * @throws LockAcquisitionException if ZooKeeper failed or the thread was interrupted
	 */
	default Optional<LockHandle> tryAcquire(Duration waitTime) {
		try {
			return Optional.of(acquire(waitTime));
		}
		catch (LockTimeoutException ex) {
			return Optional.empty();
		}
	}

	/**
	 * Run the action while holding the lock, and release it afterwards.
	 * @param <T> the result type
	 * @param waitTime how long to wait for the lock
	 * @param action the action to run under the lock
	 * @return the action's result
	 * @throws LockTimeoutException if the lock was not acquired in time (the action did
	 * not run)
	 * @throws Exception whatever the action threw
	 */
	default <T> T execute(Duration waitTime, Callable<T> action) throws Exception {
		try (LockHandle handle = acquire(waitTime)) {
			return action.call();
		}
	}

	/** Whether the current thread holds this lock. */
	boolean isHeldByCurrentThread();

}
