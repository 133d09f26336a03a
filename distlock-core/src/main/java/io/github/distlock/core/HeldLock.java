package io.github.distlock.core;

import java.time.Instant;

/**
 * A snapshot of one hold of this application: a lock it acquired and has not released.
 *
 * @param kind the kind of lock
 * @param path the lock path
 * @param holder who holds it: the name of its {@link LockScope}, which is the acquiring
 * thread's name for a synchronous acquisition
 * @param acquiredAt when it was acquired, as {@link LockHandle#acquiredAt()} has it
 * @param fencingToken its fencing token
 * @param state what the holder knows about it
 */
public record HeldLock(LockKind kind, LockPath path, String holder, Instant acquiredAt, long fencingToken,
		LockState state) {

	/**
	 * When the lock was acquired.
	 * @return {@link #acquiredAt()}
	 * @deprecated since 0.1.0 for removal in 0.2.0, use {@link #acquiredAt()}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public Instant since() {
		return this.acquiredAt;
	}

}
