package io.github.distlock.core;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * One lock in the cluster, at one path. Obtained from {@link Locks}; cheap to obtain, so
 * callers need not keep it. All acquisitions honour their wait time even while ZooKeeper
 * is unreachable.
 * <p>
 * Wait times: {@link Duration#ZERO} tries once, a negative duration waits forever.
 * <p>
 * Waiting costs no thread: an acquisition is driven by ZooKeeper's answers and watches,
 * and {@link #acquire(Duration)} only parks the calling thread on the acquisition's
 * future. Reentrancy belongs to a {@link LockScope}: the calling thread for
 * {@link #acquire(Duration)}, the given scope for
 * {@link #acquireAsync(Duration, LockScope)}.
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
	 * (the attempt is then abandoned and the thread's interrupt flag stays set)
	 * @throws LockLostException if the thread holds this lock and it is no longer held
	 */
	LockHandle acquire(Duration waitTime);

	/**
	 * Start acquiring the lock without waiting: the future completes, on the executor of
	 * the {@link Locks} that made this lock (never on a ZooKeeper thread), with the
	 * handle once the lock is held, or with a {@link LockTimeoutException} once the wait
	 * time is over. Cancelling the future abandons the attempt and leaves no lock node;
	 * if the lock was granted just before, the cancellation returns {@code false} and the
	 * handle is the caller's to close.
	 * <p>
	 * Each call is an acquisition of its own: it is not reentrant, and a caller that
	 * waits for a lock it holds waits until its wait time is over.
	 * @param waitTime how long to wait; zero tries once, negative waits forever
	 * @return the future handle
	 */
	CompletableFuture<LockHandle> acquireAsync(Duration waitTime);

	/**
	 * Start acquiring the lock for the given scope without waiting, as
	 * {@link #acquireAsync(Duration)} does, re-entering it if the scope holds it already
	 * (the future is then complete at once). Errors that need no waiting, such as a
	 * forbidden re-entry, complete the future exceptionally too.
	 * @param waitTime how long to wait; zero tries once, negative waits forever
	 * @param scope who holds the lock, for reentrancy and {@link LockContext}
	 * @return the future handle
	 */
	CompletableFuture<LockHandle> acquireAsync(Duration waitTime, LockScope scope);

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
	 * Run the action while holding the lock, and release it afterwards. For an action
	 * that throws no checked exception, {@link #invoke(Duration, Supplier)} and
	 * {@link #invoke(Duration, Runnable)} spare the caller the {@code throws Exception}.
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

	/**
	 * Return what the action supplies, computed while holding the lock; the lock is
	 * released afterwards. For actions that throw no checked exception, so that the
	 * caller need not handle {@code Exception} (the shape of Spring's
	 * {@code RetryOperations.invoke}).
	 * @param <T> the result type
	 * @param waitTime how long to wait for the lock; zero tries once, negative waits
	 * forever
	 * @param action the action to run under the lock
	 * @return the action's result
	 * @throws LockTimeoutException if the lock was not acquired in time (the action did
	 * not run)
	 */
	default <T> T invoke(Duration waitTime, Supplier<T> action) {
		try (LockHandle handle = acquire(waitTime)) {
			return action.get();
		}
	}

	/**
	 * Run the action while holding the lock, and release it afterwards. For actions that
	 * return nothing and throw no checked exception.
	 * @param waitTime how long to wait for the lock; zero tries once, negative waits
	 * forever
	 * @param action the action to run under the lock
	 * @throws LockTimeoutException if the lock was not acquired in time (the action did
	 * not run)
	 */
	default void invoke(Duration waitTime, Runnable action) {
		try (LockHandle handle = acquire(waitTime)) {
			action.run();
		}
	}

	/** Whether the current thread holds this lock. */
	boolean isHeldByCurrentThread();

}
