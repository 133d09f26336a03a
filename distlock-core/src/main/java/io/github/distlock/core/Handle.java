package io.github.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * What a holder keeps of a granted acquisition: one held lock ({@link LockHandle}) or a
 * set of them ({@link MultiLockHandle}). Closing it releases what it holds; closing it
 * again does nothing. A handle belongs to the acquisition, not to a thread: any thread
 * may close it.
 *
 * @see Acquirable
 */
public interface Handle extends AutoCloseable {

	/**
	 * The handles of the single locks held through this one, in acquisition order: a
	 * {@link LockHandle} is its own only element.
	 * @return the handles, at least one
	 */
	List<LockHandle> handles();

	/**
	 * When what this handle holds was acquired: for a set, when its last lock was (the
	 * moment the whole set was held).
	 * @return the instant
	 */
	Instant acquiredAt();

	/**
	 * What the holder knows about what it holds now: {@link LockState#HELD} until it is
	 * released or the connection to ZooKeeper is suspended or lost. For a set, the state
	 * of its weakest lock: {@link LockState#LOST} if one is lost, else
	 * {@link LockState#IN_DOUBT} if one is in doubt, else {@link LockState#RELEASED} if
	 * one is released.
	 * @return the state
	 */
	LockState state();

	/** Whether the state is {@link LockState#HELD}. */
	default boolean isHeld() {
		return state() == LockState.HELD;
	}

	/**
	 * Check that everything this handle holds is still held; call it before an action
	 * that must not happen without the lock.
	 * @throws LockLostException if it is not
	 */
	default void assertHeld() {
		for (LockHandle handle : handles()) {
			handle.assertHeld();
		}
	}

	/**
	 * Release what this handle holds (a set in reverse order of acquisition). Does
	 * nothing if it was closed already. Never waits for ZooKeeper: the lock nodes are
	 * deleted in the background, also after the connection returns if ZooKeeper is
	 * unreachable now, or die with the session.
	 */
	@Override
	void close();

	/**
	 * Give up what this handle holds now, and release it once the given time has passed:
	 * the holder no longer holds it from now on (it leaves the holder's
	 * {@link LockContext}, and asking for the lock again is a new acquisition that waits
	 * for this one), while the lock stays held in ZooKeeper until a timer releases it (no
	 * thread waits for it). It still ends with the session if the process dies. A zero or
	 * negative delay closes at once.
	 * @param delay how long to keep the lock before releasing it
	 */
	void closeAfter(Duration delay);

	/**
	 * Release what this handle holds, as {@link #close()} does, and return a future that
	 * completes when ZooKeeper confirmed it: the lock nodes are gone, or died with their
	 * session.
	 * @return the confirmation; completes exceptionally with a
	 * {@link LockReleaseException} if ZooKeeper refused a delete
	 */
	CompletableFuture<Void> closeAsync();

}
