package io.github.distlock.core;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Entry point of the programmatic API, and the bean applications inject. Every lock
 * annotation goes through this interface too, so what an annotation does can be done
 * without it.
 *
 * <pre class="code">
 * try (LockHandle lock = locks.mutex(LockPath.of("orders", orderId)).acquire(Duration.ofSeconds(2))) {
 *     store.write(order, lock.fencingToken());
 * }
 * </pre>
 *
 * Paths given as strings are literal paths checked by {@link LockPath#parse(String)};
 * build a path from untrusted values with {@link LockPath#of(String, String...)} so each
 * value stays one escaped segment.
 */
public interface Locks {

	/**
	 * Wait time meaning "wait as long as it takes". Any negative duration means the same.
	 */
	Duration WAIT_FOREVER = Duration.ofMillis(-1);

	/**
	 * Return the reentrant, FIFO-fair mutex at the given path: a thread that holds it may
	 * acquire it again (and must release it as often).
	 * @param path the lock path
	 * @return the lock
	 */
	ClusterLock mutex(LockPath path);

	/**
	 * Return the reentrant mutex at the given literal path.
	 * @param path the literal lock path, such as {@code reports/daily}
	 * @return the lock
	 * @see #mutex(LockPath)
	 */
	default ClusterLock mutex(String path) {
		return mutex(LockPath.parse(path));
	}

	/**
	 * Return the mutex at the given path, taken without reentrancy: a thread that holds
	 * it (either way) and asks for it again gets a {@link LockReentryException} at once.
	 * It is the same lock as {@link #mutex(LockPath)}: reentrancy is the caller's policy.
	 * @param path the lock path
	 * @return the lock
	 */
	ClusterLock nonReentrantMutex(LockPath path);

	/**
	 * Return the non-reentrant mutex at the given literal path.
	 * @param path the literal lock path
	 * @return the lock
	 * @see #nonReentrantMutex(LockPath)
	 */
	default ClusterLock nonReentrantMutex(String path) {
		return nonReentrantMutex(LockPath.parse(path));
	}

	/**
	 * Return the read/write lock at the given path: readers share it, a writer holds it
	 * alone. Both sides are reentrant; a writer may take the read side too (downgrade),
	 * while a reader asking for the write side gets a {@link LockUpgradeException} at
	 * once (waiting would deadlock).
	 * @param path the lock path
	 * @return the lock
	 */
	ClusterReadWriteLock readWrite(LockPath path);

	/**
	 * Return the read/write lock at the given literal path.
	 * @param path the literal lock path
	 * @return the lock
	 * @see #readWrite(LockPath)
	 */
	default ClusterReadWriteLock readWrite(String path) {
		return readWrite(LockPath.parse(path));
	}

	/**
	 * Return the semaphore at the given path: at most {@code permits} holders across the
	 * cluster. Each acquisition takes one permit, also by a thread that holds one
	 * already. Every node must declare the same number of permits for a path; a node that
	 * declares another number gets a {@link LockConfigurationException} instead of
	 * admitting more holders than intended.
	 * @param path the lock path
	 * @param permits the number of permits, at least 1
	 * @return the semaphore
	 */
	ClusterLock semaphore(LockPath path, int permits);

	/**
	 * Return the semaphore at the given literal path.
	 * @param path the literal lock path
	 * @param permits the number of permits, at least 1
	 * @return the semaphore
	 * @see #semaphore(LockPath, int)
	 */
	default ClusterLock semaphore(String path, int permits) {
		return semaphore(LockPath.parse(path), permits);
	}

	/**
	 * Return a lock over several locks, taken all or none within one wait time, always in
	 * the same order (so two multi-locks over overlapping sets never deadlock), and
	 * released in reverse order.
	 * @param locks the locks; a lock asked for twice is taken once (both kinds of mutex
	 * at one path are one lock, taken without reentrancy if either asks so; the read and
	 * write side of one read/write lock are taken as the write side)
	 * @return the multi-lock
	 */
	default MultiLock multi(Collection<? extends ClusterLock> locks) {
		return new OrderedMultiLock(locks);
	}

	/**
	 * Return the locks this application holds now, through this object.
	 * @return a snapshot, one entry per outermost acquisition
	 */
	List<HeldLock> heldLocks();

	/**
	 * Return the number of locks this application holds now, through this object, as
	 * {@link #heldLocks()} would list them (for a gauge: an implementation counts them
	 * without making the snapshots).
	 * @return the number of held locks
	 */
	default int heldCount() {
		return heldLocks().size();
	}

	/**
	 * Return the acquisitions of this application that wait for their lock now, through
	 * this object.
	 * @return a snapshot, empty if the implementation does not track waiters
	 */
	default List<WaitingAcquisition> waitingAcquisitions() {
		return List.of();
	}

	/**
	 * Return the number of acquisitions that wait now, as {@link #waitingAcquisitions()}
	 * would list them.
	 * @return the number of waiting acquisitions
	 */
	default int waitingCount() {
		return waitingAcquisitions().size();
	}

	/**
	 * Add a listener told of every acquisition that contends for its lock, its outcome
	 * and, once held, its release or loss: what metrics, observations and recorders
	 * follow.
	 * @param listener the listener, called as {@link LockEventListener} says
	 * @implSpec The default ignores the listener: an implementation that reports no
	 * events has none to tell.
	 */
	default void addEventListener(LockEventListener listener) {
	}

	/**
	 * Add a listener told once of every held lock that becomes {@link LockState#LOST}.
	 * @param listener the listener, called one loss after the other, never on a ZooKeeper
	 * thread
	 * @implSpec The default ignores the listener: an implementation whose locks cannot be
	 * lost has none to tell.
	 */
	default void addLossListener(Consumer<HeldLock> listener) {
	}

	/**
	 * Show who holds and who waits for the locks at the given path, of every kind, as
	 * ZooKeeper has them now. Asks ZooKeeper and waits for its answers: not for hot
	 * paths.
	 * @param path the lock path
	 * @return one entry per kind of lock that has nodes at the path; empty if none has
	 * @throws UnsupportedOperationException if this implementation cannot tell
	 * @throws LockAcquisitionException if ZooKeeper could not be read
	 */
	default List<LockQueue> inspect(LockPath path) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot inspect lock nodes");
	}

	/**
	 * What operators see of the locks cluster-wide: every lock in use, every leader
	 * election and the wait-for graph across instances, read from ZooKeeper.
	 * @return the administration view of the locks this object serves
	 * @throws UnsupportedOperationException if this implementation cannot tell
	 */
	default LockAdmin admin() {
		throw new UnsupportedOperationException(getClass().getName() + " has no administration view");
	}

	/**
	 * Wait time used when a caller does not give one ({@code distlock.lock.wait-time}).
	 * @return the default wait time; negative means wait forever
	 */
	Duration defaultWaitTime();

	/**
	 * Where asynchronous acquisitions complete, and so where code chained to them runs:
	 * for code that must run there even when it is chained to an acquisition that has
	 * already completed (a dependent action of a completed future runs on the thread that
	 * adds it).
	 * @return the executor; by default one that runs a task on the calling thread
	 */
	default Executor completionExecutor() {
		return Runnable::run;
	}

}
