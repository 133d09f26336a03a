package io.github.distlock.history;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;

/**
 * One hold as the checker sees it: who holds which lock with which token, since when, and
 * when its holder learned it was lost, if it did.
 */
final class HoldRecord {

	final int id;

	final int op;

	final String actor;

	final int client;

	final String lock;

	final Access access;

	final int permits;

	final long token;

	/**
	 * The hold this one enters (a re-entry or a downgrade), or this one's id: holds of
	 * one family may overlap and share a token.
	 */
	final int family;

	final long grantedNanos;

	@Nullable final LockHandle handle;

	/** When the engine (loss listener) or the holder (state) first reported it lost. */
	volatile long lostNanos = Long.MAX_VALUE;

	volatile long releasedNanos = Long.MAX_VALUE;

	HoldRecord(int id, int op, String actor, int client, String lock, Access access, int permits, long token,
			int family, long grantedNanos, @Nullable LockHandle handle) {
		this.id = id;
		this.op = op;
		this.actor = actor;
		this.client = client;
		this.lock = lock;
		this.access = access;
		this.permits = permits;
		this.token = token;
		this.family = (family != 0) ? family : id;
		this.grantedNanos = grantedNanos;
		this.handle = handle;
	}

	/** Note the hold lost now if its handle says so. */
	void checkState() {
		if (this.handle != null && this.lostNanos == Long.MAX_VALUE) {
			LockState state = this.handle.state();
			if (state == LockState.LOST || state == LockState.IN_DOUBT) {
				this.lostNanos = System.nanoTime();
			}
		}
	}

	/** Whether it conflicts with another hold of the same lock. */
	boolean conflictsWith(HoldRecord other) {
		if (other.family == this.family) {
			return false;
		}
		return this.access == Access.EXCLUSIVE || other.access == Access.EXCLUSIVE;
	}

	@Override
	public String toString() {
		return "hold " + this.id + " (" + this.actor + " op " + this.op + ", " + this.access + " " + this.lock
				+ ", token " + this.token + ((this.family != this.id) ? ", inside hold " + this.family : "") + ")";
	}

	/** How a hold shares its lock. */
	enum Access {

		/** A mutex, a write lock, a semaphore of one permit. */
		EXCLUSIVE,

		/** A read lock: shares with reads. */
		SHARED,

		/** A lease of a semaphore of several permits. */
		PERMIT

	}

}
