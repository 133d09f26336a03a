package io.github.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The handle of the held locks of a {@link MultiLock}. Closing it releases them in
 * reverse order of acquisition.
 */
public interface MultiLockHandle extends Handle {

	/**
	 * The handles of the held locks, in acquisition order; each has its own fencing
	 * token.
	 */
	@Override
	List<LockHandle> handles();

	/**
	 * When the last lock of the set was acquired: from then on the whole set was held.
	 * @return the instant
	 */
	@Override
	default Instant acquiredAt() {
		Instant last = Instant.MIN;
		for (LockHandle handle : handles()) {
			Instant acquiredAt = handle.acquiredAt();
			if (acquiredAt.isAfter(last)) {
				last = acquiredAt;
			}
		}
		return last;
	}

	/**
	 * The state of the weakest lock of the set: {@link LockState#LOST} if one is lost,
	 * else {@link LockState#IN_DOUBT} if one is in doubt, else {@link LockState#RELEASED}
	 * if one is released, else {@link LockState#HELD}.
	 * @return the state
	 */
	@Override
	default LockState state() {
		LockState weakest = LockState.HELD;
		for (LockHandle handle : handles()) {
			LockState state = handle.state();
			if (state == LockState.LOST) {
				return state;
			}
			if (state == LockState.IN_DOUBT || (state == LockState.RELEASED && weakest == LockState.HELD)) {
				weakest = state;
			}
		}
		return weakest;
	}

	/**
	 * Release every lock, in reverse order. Every lock is released even when one fails;
	 * the first failure is thrown with the others suppressed.
	 */
	@Override
	void close();

	/**
	 * Give every lock up now and release them once the given time has passed, as
	 * {@link LockHandle#closeAfter(Duration)} does for one.
	 * @param delay how long to keep the locks before releasing them
	 */
	@Override
	default void closeAfter(Duration delay) {
		List<LockHandle> handles = handles();
		for (int i = handles.size() - 1; i >= 0; i--) {
			handles.get(i).closeAfter(delay);
		}
	}

	/**
	 * Release every lock, in reverse order, and return a future that completes when
	 * ZooKeeper confirmed every release.
	 * @return the confirmation
	 */
	@Override
	CompletableFuture<Void> closeAsync();

}
