package io.github.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

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
public interface ClusterLock extends Acquirable<LockHandle> {

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
	 * (the acquisition is then abandoned and the thread's interrupt flag stays set)
	 * @throws LockLostException if the thread holds this lock and it is no longer held
	 */
	@Override
	LockHandle acquire(Duration waitTime);

	/**
	 * Start acquiring the lock without waiting: the future completes, on the executor of
	 * the {@link Locks} that made this lock (never on a ZooKeeper thread), with the
	 * handle once the lock is held, or with a {@link LockTimeoutException} once the wait
	 * time is over. Cancelling the future abandons the acquisition and leaves no lock
	 * node; if the lock was granted just before, the cancellation returns {@code false}
	 * and the handle is the caller's to close.
	 * <p>
	 * Each call is an acquisition of its own: it is not reentrant, and a caller that
	 * waits for a lock it holds waits until its wait time is over.
	 * @param waitTime how long to wait; zero tries once, negative waits forever
	 * @return the future handle
	 */
	@Override
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
	@Override
	CompletableFuture<LockHandle> acquireAsync(Duration waitTime, LockScope scope);

	/**
	 * Whether a holder that holds this lock gets it again at once when it asks again (a
	 * re-entry, released with the outermost handle). A mutex from
	 * {@link Locks#nonReentrantMutex(LockPath)} is not: a holder asking again is refused
	 * with a {@link LockReentryException}. Neither is a semaphore: each acquisition takes
	 * a permit of its own.
	 * @return whether the lock is reentrant
	 */
	default boolean isReentrant() {
		return kind() != LockKind.SEMAPHORE && kind().isLock();
	}

	/** Whether the current thread holds this lock. */
	boolean isHeldByCurrentThread();

}
