package io.github.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The handle of one held lock. Closing the handle releases the lock; closing it again
 * does nothing. A handle belongs to the acquisition, not to a thread: any thread may
 * close it.
 * <p>
 * Closing sends the release to ZooKeeper without waiting for its answer: ZooKeeper
 * handles one session's requests in order, so a later acquisition by this application
 * always comes after the release. A caller that must know the release reached ZooKeeper
 * (before handing work to another process, say) uses {@link #closeAsync()}.
 */
public interface LockHandle extends Handle {

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

	/**
	 * Path of the ZooKeeper node that holds this lock, relative to the namespace of the
	 * client holding it. The node exists exactly as long as the lock is held, so a write
	 * to ZooKeeper that must not land once the lock is lost checks the node in the same
	 * multi-operation ({@code io.github.distlock.curator.GuardedWrites} does). A leader's
	 * tenure gives its latch node: it may outlive the tenure (a tenure ended by a
	 * suspended connection keeps it), but while it exists it is the first of the group,
	 * so no other member led meanwhile.
	 * @return the node's path, or empty if the lock is not held through a node
	 */
	default Optional<String> nodePath() {
		return Optional.empty();
	}

	/**
	 * Whether an operator asked the holder to release this lock
	 * ({@link LockAdmin#requestRelease}, or Curator's {@code Revoker.attemptRevoke} on
	 * its node): Curator's revoke marker sits on the lock's node. Known only once a
	 * listener was registered with {@link #onReleaseRequested(Runnable)}: a hold that
	 * does not listen does not watch its node, as Curator watches only a revocable
	 * lock's.
	 * @return whether the release was asked and this hold heard it
	 */
	default boolean isReleaseRequested() {
		return false;
	}

	/**
	 * Listen for an operator's request to release this lock (Curator's cooperative
	 * revocation: {@link LockAdmin#requestRelease}, or Curator's
	 * {@code Revoker.attemptRevoke} on the lock's node). The first listener makes the
	 * hold watch its node's data, as a Curator lock made revocable does; a request that
	 * already sits on the node is told at once. Each listener is called at most once, on
	 * the thread that completes the application's futures (never ZooKeeper's event
	 * thread): it should hand long work off. Releasing is the holder's choice: the lock
	 * stays held until the handle is closed. Once the hold ended, listeners are never
	 * called. Handles that cannot listen never call it.
	 * @param listener told once when the release is asked
	 */
	default void onReleaseRequested(Runnable listener) {
	}

	/** When the lock was acquired (the outermost acquisition, for a reentrant one). */
	@Override
	Instant acquiredAt();

	/**
	 * This handle alone.
	 * @return a list of this handle
	 */
	@Override
	default List<LockHandle> handles() {
		return List.of(this);
	}

	/**
	 * What the holder knows about the lock now: {@link LockState#HELD} until it is
	 * released or the connection to ZooKeeper is suspended or lost.
	 * @return the state
	 */
	@Override
	LockState state();

	/**
	 * Check that the lock is still held; call it before an action that must not happen
	 * without the lock.
	 * @throws LockLostException if it is not
	 */
	@Override
	default void assertHeld() {
		LockState state = state();
		if (state != LockState.HELD) {
			throw new LockLostException("Lock '" + path() + "' is no longer held: " + state);
		}
	}

	/**
	 * Release the lock. Does nothing if this handle was closed already. Never waits for
	 * ZooKeeper: the lock node is deleted in the background, also after the connection
	 * returns if ZooKeeper is unreachable now, or dies with the session.
	 */
	@Override
	void close();

	/**
	 * Give the lock up now, and release it once the given time has passed: the holder no
	 * longer holds it from now on (it leaves the holder's {@link LockContext}, and asking
	 * for the lock again is a new acquisition that waits for this one), while the lock
	 * stays held in ZooKeeper until a timer releases it (no thread waits for it). It
	 * still ends with the session if the process dies. A zero or negative delay closes at
	 * once.
	 * @param delay how long to keep the lock before releasing it
	 */
	@Override
	default void closeAfter(Duration delay) {
		if (delay.isNegative() || delay.isZero()) {
			close();
			return;
		}
		CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS, Runnable::run).execute(this::close);
	}

	/**
	 * Release the lock, as {@link #close()} does, and return a future that completes when
	 * ZooKeeper confirmed it: the lock node is gone, or died with its session. For a
	 * handle of a re-entry (an inner acquisition of a reentrant lock) the lock stays held
	 * by the outer one and the future completes at once.
	 * @return the confirmation; completes exceptionally with a
	 * {@link LockReleaseException} if ZooKeeper refused the delete
	 */
	@Override
	CompletableFuture<Void> closeAsync();

}
