package io.github.distlock.core;

import java.time.Instant;

/**
 * A held lock. Closing the handle releases the lock; closing it again does nothing.
 */
public interface LockHandle extends AutoCloseable {

	/** Path of the held lock relative to the lock root. */
	LockPath path();

	/** Kind of the held lock. */
	LockKind kind();

	/**
	 * Fencing token of this acquisition: it strictly increases for successive holders of
	 * the same path across the whole ensemble, also after ZooKeeper removed and
	 * re-created the lock's parent node. A store that remembers the highest token it saw
	 * per path can reject writes carrying a lower one: those come from a holder that lost
	 * the lock without knowing it.
	 * <p>
	 * A reentrant acquisition carries the token of the outermost one.
	 * @return the token, a positive number
	 */
	long fencingToken();

	/** When the lock was acquired (the outermost acquisition, for a reentrant one). */
	Instant acquiredAt();

	/**
	 * What the holder knows about the lock now: {@link LockState#HELD} until it is
	 * released or the connection to ZooKeeper is suspended or lost.
	 * @return the state
	 */
	LockState state();

	/** Whether the lock is {@link LockState#HELD}. */
	default boolean isHeld() {
		return state() == LockState.HELD;
	}

	/**
	 * Check that the lock is still held; call it before an action that must not happen
	 * without the lock.
	 * @throws LockLostException if it is not
	 */
	default void assertHeld() {
		LockState state = state();
		if (state != LockState.HELD) {
			throw new LockLostException("Lock '" + path() + "' is no longer held: " + state);
		}
	}

	/**
	 * Release the lock. Does nothing if this handle was closed already. Never waits for
	 * an unreachable ZooKeeper: the lock node is then removed in the background once the
	 * connection returns, or dies with the session.
	 * @throws LockReleaseException if ZooKeeper refused the release
	 */
	@Override
	void close();

}
