package io.github.distlock.integration;

import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockScope;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.Locks;

/**
 * The {@link Lock} of one key of a {@link DistlockLockRegistry}: a layer of thread
 * ownership and reentrancy over one {@link LockHandle} per owning thread. The first
 * {@code lock} of a thread acquires the distlock mutex (for the calling thread's
 * {@link LockScope}); further ones count up; the last {@code unlock} closes the handle
 * and returns once ZooKeeper confirmed the release, so that another process may take the
 * lock as soon as it returns.
 * <p>
 * Mutual exclusion is the engine's: two threads of this process, or two lock objects of
 * the same key (one of them forgotten by
 * {@link DistlockLockRegistry#expireUnusedOlderThan}), are excluded by the one distlock
 * mutex underneath, as two processes are. This layer only remembers which thread owns
 * which handle.
 */
final class RegistryLock implements Lock {

	private final ClusterLock lock;

	private final String key;

	// One entry per thread that holds the lock: at most one, except while a thread
	// whose hold was lost has not called unlock() yet and another has taken the lock.
	private final ConcurrentHashMap<Thread, Holding> holdings = new ConcurrentHashMap<>(2);

	// Guarded by this: threads that wait for or hold the lock, and when it was last used.
	private int users;

	private long lastUsed = System.nanoTime();

	RegistryLock(ClusterLock lock, String key) {
		this.lock = lock;
		this.key = key;
	}

	@Override
	public void lock() {
		if (reenter()) {
			return;
		}
		start();
		LockHandle handle;
		try {
			// join() waits without giving up on an interrupt and keeps the interrupt
			// flag, as Lock.lock() must.
			handle = this.lock.acquireAsync(Locks.WAIT_FOREVER, LockScope.currentThread()).join();
		}
		catch (CompletionException ex) {
			finish();
			Throwable cause = ex.getCause();
			if (cause instanceof DistributedLockException distlock) {
				throw distlock;
			}
			throw new LockAcquisitionException("Locking " + this + " failed: " + cause, cause);
		}
		catch (RuntimeException ex) {
			finish();
			throw ex;
		}
		own(handle);
	}

	@Override
	public void lockInterruptibly() throws InterruptedException {
		if (Thread.interrupted()) {
			throw new InterruptedException("Interrupted before locking " + this);
		}
		if (!reenter()) {
			acquire(Locks.WAIT_FOREVER);
		}
	}

	@Override
	public boolean tryLock() {
		if (reenter()) {
			return true;
		}
		try {
			return acquire(Duration.ZERO);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		if (Thread.interrupted()) {
			throw new InterruptedException("Interrupted before locking " + this);
		}
		if (reenter()) {
			return true;
		}
		return acquire((time > 0) ? Duration.ofNanos(unit.toNanos(time)) : Duration.ZERO);
	}

	/**
	 * Acquire the mutex for the calling thread: the engine keeps the wait time by a
	 * timer, also while ZooKeeper is unreachable, and abandons the acquisition on an
	 * interrupt.
	 */
	private boolean acquire(Duration waitTime) throws InterruptedException {
		start();
		LockHandle handle;
		try {
			handle = this.lock.acquire(waitTime);
		}
		catch (LockTimeoutException ex) {
			finish();
			return false;
		}
		catch (LockAcquisitionException ex) {
			finish();
			if (ex.getCause() instanceof InterruptedException) {
				// The engine keeps the interrupt flag; an InterruptedException takes its
				// place, as Lock's contract says.
				Thread.interrupted();
				InterruptedException interrupted = new InterruptedException(
						"Interrupted while waiting for " + this + "; the acquisition was abandoned");
				interrupted.initCause(ex);
				throw interrupted;
			}
			throw ex;
		}
		catch (RuntimeException ex) {
			finish();
			throw ex;
		}
		own(handle);
		return true;
	}

	/**
	 * Count one more lock of a thread that holds the lock. A hold that is not
	 * {@link LockState#HELD} now is not handed out again, not even to its owner, as the
	 * engine's own re-entries are not: the caller learns of it at once.
	 */
	private boolean reenter() {
		Holding holding = this.holdings.get(Thread.currentThread());
		if (holding == null) {
			return false;
		}
		LockState state = holding.handle.state();
		if (state != LockState.HELD) {
			throw new LockLostException(this + " is held by thread '" + Thread.currentThread().getName() + "' but is "
					+ state + ": it is not handed out again. Call unlock() as often as the lock was taken (the last "
					+ "one reports the loss), then lock it anew");
		}
		holding.count++;
		return true;
	}

	private void own(LockHandle handle) {
		this.holdings.put(Thread.currentThread(), new Holding(handle));
	}

	/**
	 * Release one lock of the calling thread; the last one releases the mutex and returns
	 * once ZooKeeper confirmed the release.
	 * @throws IllegalMonitorStateException if the calling thread does not hold the lock
	 * @throws ConcurrentModificationException if the lock was lost while held (its
	 * session ended or, under the default connection-loss policy, its connection was
	 * suspended): another process may have held it meanwhile. The lock is released all
	 * the same.
	 */
	@Override
	public void unlock() {
		Thread current = Thread.currentThread();
		Holding holding = this.holdings.get(current);
		if (holding == null) {
			throw new IllegalMonitorStateException("Thread '" + current.getName() + "' does not own " + this
					+ ": only the thread that locked it " + "can unlock it");
		}
		if (--holding.count > 0) {
			return;
		}
		this.holdings.remove(current);
		finish();
		LockState state = holding.handle.state();
		if (state == LockState.LOST) {
			holding.handle.close();
			throw new ConcurrentModificationException(this + " was lost while thread '" + current.getName()
					+ "' held it: its ZooKeeper session ended or its connection was suspended, so another process "
					+ "may have held it meanwhile. The integrity of data protected by this lock may have been "
					+ "compromised.");
		}
		if (state != LockState.HELD) {
			// In doubt: the release is sent when the connection returns, or the node
			// dies with its session; there is nothing to wait for now.
			holding.handle.close();
			return;
		}
		CompletableFuture<Void> released = holding.handle.closeAsync();
		try {
			released.join();
		}
		catch (CompletionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof DistributedLockException distlock) {
				throw distlock;
			}
			throw new LockAcquisitionException("Releasing " + this + " failed: " + cause, cause);
		}
	}

	/**
	 * Conditions are not supported, as with Spring Integration's distributed registries.
	 * @throws UnsupportedOperationException always
	 */
	@Override
	public Condition newCondition() {
		throw new UnsupportedOperationException("The locks of DistlockLockRegistry do not support conditions: "
				+ "a Condition's signal would have to wake waiters in other processes. Coordinate through the "
				+ "lock and a shared store (or a message) instead");
	}

	private synchronized void start() {
		this.users++;
	}

	private synchronized void finish() {
		this.users--;
		this.lastUsed = System.nanoTime();
	}

	synchronized void used() {
		this.lastUsed = System.nanoTime();
	}

	/**
	 * Whether no thread holds or waits for this lock and it was last used at least the
	 * given time before {@code now}; the caller holds this lock's monitor.
	 */
	boolean isUnusedFor(long now, long ageNanos) {
		return this.users == 0 && now - this.lastUsed >= ageNanos;
	}

	@Override
	public String toString() {
		return "the lock of key '" + this.key + "' (" + this.lock + ")";
	}

	/** The hold of one owning thread and how often it took the lock. */
	private static final class Holding {

		private final LockHandle handle;

		// Read and written by the owning thread only.
		private int count = 1;

		Holding(LockHandle handle) {
			this.handle = handle;
		}

	}

}
