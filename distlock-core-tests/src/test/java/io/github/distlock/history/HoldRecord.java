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

	/** When the engine's loss listener reported it lost. */
	volatile long reportedNanos = Long.MAX_VALUE;

	/**
	 * When its handle first answered {@link LockState#HELD} to a state check asked after
	 * the loss listener had reported it lost (LOST is final: a broken invariant).
	 */
	volatile long heldAfterReportNanos = Long.MAX_VALUE;

	/**
	 * Whether its holder waits for the loss listener instead of asking its state
	 * ({@link HoldWatcher}), until {@link #askedNanos}.
	 */
	volatile boolean listening;

	/** When its holder first asked its state (after listening, if it listened). */
	volatile long askedNanos = Long.MAX_VALUE;

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

	/**
	 * Ask the handle's state: note the hold lost now if it says so, and note a
	 * {@link LockState#HELD} answered after the loss listener reported it lost.
	 * @return the state ({@code null} without a handle)
	 */
	@Nullable LockState checkState() {
		if (this.handle == null) {
			return null;
		}
		long asked = System.nanoTime();
		this.askedNanos = Math.min(this.askedNanos, asked);
		boolean reported = this.reportedNanos < asked;
		LockState state = this.handle.state();
		if ((state == LockState.LOST || state == LockState.IN_DOUBT) && this.lostNanos == Long.MAX_VALUE) {
			this.lostNanos = System.nanoTime();
		}
		if (state == LockState.HELD && reported && this.heldAfterReportNanos == Long.MAX_VALUE) {
			this.heldAfterReportNanos = asked;
		}
		return state;
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
