package io.github.distlock.shedlock;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import net.javacrumbs.shedlock.support.LockException;

import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.LockQueue;
import io.github.distlock.core.LockState;
import io.github.distlock.core.Locks;

/**
 * One lock taken by {@link DistlockLockProvider}, through all the {@code SimpleLock}s its
 * extensions hand out: the distlock handle, the timer that releases it when
 * {@code lockAtMostFor} passes, and the time until which {@code lockAtLeastFor} keeps it.
 * It ends once: unlocked, or expired.
 */
final class ShedLockHold {

	private final Locks locks;

	private final String name;

	private final LockHandle handle;

	// Guarded by this: completes with true when lockAtMostFor passes, with false when
	// the hold ended otherwise or was extended (which cancels the JDK's timer task).
	private CompletableFuture<Boolean> expiry;

	// Guarded by this.
	private Instant lockAtMostUntil;

	// Guarded by this.
	private Instant lockAtLeastUntil;

	// Guarded by this.
	private boolean ended;

	ShedLockHold(Locks locks, String name, LockHandle handle, Duration lockAtMostFor, Duration lockAtLeastFor) {
		this.locks = locks;
		this.name = name;
		this.handle = handle;
		Instant acquired = handle.acquiredAt();
		synchronized (this) {
			this.lockAtLeastUntil = acquired.plus(lockAtLeastFor);
			this.lockAtMostUntil = acquired.plus(lockAtMostFor);
			this.expiry = expireAt(this.lockAtMostUntil);
		}
	}

	/** A timer on the JDK's shared delay scheduler: no thread of ours waits for it. */
	private CompletableFuture<Boolean> expireAt(Instant deadline) {
		long delay = Math.max(0, Duration.between(Instant.now(), deadline).toNanos());
		CompletableFuture<Boolean> expiry = new CompletableFuture<>();
		expiry.completeOnTimeout(Boolean.TRUE, delay, TimeUnit.NANOSECONDS).thenAccept((expired) -> {
			if (expired) {
				expire(expiry);
			}
		});
		return expiry;
	}

	/**
	 * lockAtMostFor passed while the holder still runs: ShedLock's contract gives the
	 * lock to others now.
	 */
	private void expire(CompletableFuture<Boolean> expiry) {
		synchronized (this) {
			if (this.ended || this.expiry != expiry) {
				return;
			}
			this.ended = true;
		}
		this.handle.close();
	}

	/**
	 * Unlock: release now and wait for ZooKeeper's confirmation, or, within
	 * lockAtLeastFor, leave the release to a timer and return.
	 */
	void unlock() {
		Duration keep;
		synchronized (this) {
			if (this.ended) {
				// Released when lockAtMostFor passed.
				return;
			}
			this.ended = true;
			this.expiry.complete(Boolean.FALSE);
			keep = Duration.between(Instant.now(), this.lockAtLeastUntil);
		}
		if (keep.isNegative() || keep.isZero()) {
			awaitRelease();
		}
		else {
			this.handle.closeAfter(keep);
		}
	}

	private void awaitRelease() {
		CompletableFuture<Void> confirmation = this.handle.closeAsync();
		try {
			confirmation.get();
		}
		catch (InterruptedException ex) {
			// The release is sent; only the wait for its answer is cut short.
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException ex) {
			Throwable cause = DistlockLockProvider.unwrap(ex);
			throw new LockException("Unlocking '" + this.name + "' (distlock lock '" + this.handle.path()
					+ "') failed: " + cause.getMessage(), cause);
		}
	}

	/**
	 * Extend: both times count anew from now, if the lock is still held.
	 * @return whether it was extended; if not, the lock still ends as before (at its
	 * lockAtMostFor, or with its session)
	 */
	boolean extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
		Instant now = Instant.now();
		boolean expiredNow;
		synchronized (this) {
			if (this.ended) {
				return false;
			}
			// Passed, its timer not run yet: the lock is not held any more.
			expiredNow = !now.isBefore(this.lockAtMostUntil);
			if (expiredNow) {
				this.ended = true;
				this.expiry.complete(Boolean.FALSE);
			}
		}
		if (expiredNow) {
			awaitRelease();
			return false;
		}
		if (!heldAsZooKeeperSays()) {
			return false;
		}
		synchronized (this) {
			if (this.ended) {
				return false;
			}
			this.expiry.complete(Boolean.FALSE);
			this.lockAtMostUntil = now.plus(lockAtMostFor);
			this.lockAtLeastUntil = now.plus(lockAtLeastFor);
			this.expiry = expireAt(this.lockAtMostUntil);
			return true;
		}
	}

	/**
	 * Whether the lock is held: this holder's session still holds it, and ZooKeeper shows
	 * its node as the holder (asked now, where the locks can tell).
	 */
	private boolean heldAsZooKeeperSays() {
		if (this.handle.state() != LockState.HELD) {
			return false;
		}
		List<LockQueue> queues;
		try {
			queues = this.locks.inspect(this.handle.path());
		}
		catch (UnsupportedOperationException ex) {
			// Locks that cannot read ZooKeeper: the session's word alone.
			return true;
		}
		catch (DistributedLockException ex) {
			return false;
		}
		long token = this.handle.fencingToken();
		for (LockQueue queue : queues) {
			for (LockParticipant participant : queue.participants()) {
				if (participant.holds() && participant.fencingToken() == token) {
					return true;
				}
			}
		}
		return false;
	}

	@Override
	public String toString() {
		return "ShedLockHold['" + this.name + "', " + this.handle + "]";
	}

}
