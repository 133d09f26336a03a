package io.github.distlock.core;

import java.time.Instant;

/**
 * A snapshot of one acquisition of this application that waits for its lock.
 *
 * @param kind the kind of lock
 * @param path the lock path
 * @param holder who waits, and will hold the lock once acquired: the name of its
 * {@link LockScope}, which is the waiting thread's name for a synchronous acquisition
 * @param startedAt when the acquisition started, and so started to wait
 */
public record WaitingAcquisition(LockKind kind, LockPath path, String holder, Instant startedAt) {

	/**
	 * When the acquisition started.
	 * @return {@link #startedAt()}
	 * @deprecated since 0.1.0 for removal in 0.2.0, use {@link #startedAt()}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public Instant since() {
		return this.startedAt;
	}

}
