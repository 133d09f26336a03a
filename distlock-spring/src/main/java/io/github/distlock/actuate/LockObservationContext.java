package io.github.distlock.actuate;

import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * What a {@link LockObservationConvention} reads of one acquisition
 * ({@link DistlockObservationDocumentation#LOCK_ACQUIRE}) or one hold
 * ({@link DistlockObservationDocumentation#LOCK_HOLD}) of a lock.
 */
public final class LockObservationContext extends Observation.Context {

	private final DistlockObservationDocumentation phase;

	private final LockKind kind;

	private final LockPath path;

	private volatile @Nullable String outcome;

	private volatile boolean lost;

	private volatile boolean released;

	private volatile long fencingToken = -1;

	LockObservationContext(DistlockObservationDocumentation phase, LockKind kind, LockPath path) {
		this.phase = phase;
		this.kind = kind;
		this.path = path;
	}

	/** Which observation this is: the acquisition or the hold. */
	public DistlockObservationDocumentation phase() {
		return this.phase;
	}

	/** The kind of lock. */
	public LockKind kind() {
		return this.kind;
	}

	/** The lock's path, resolved; its {@link LockPath#template() template} names it. */
	public LockPath path() {
		return this.path;
	}

	/**
	 * How the acquisition ended ({@code acquired}, {@code timed_out}, {@code cancelled},
	 * {@code failed}), {@code null} until it ends and for a hold.
	 */
	public @Nullable String outcome() {
		return this.outcome;
	}

	void setOutcome(String outcome) {
		this.outcome = outcome;
	}

	/** Whether the held lock was lost before its release (a hold only). */
	public boolean lost() {
		return this.lost;
	}

	void setLost() {
		this.lost = true;
	}

	/**
	 * Whether the hold has ended: its {@code lost} key is known only then, so the
	 * long-task timer and the loss counter do not carry it.
	 */
	public boolean released() {
		return this.released;
	}

	void setReleased() {
		this.released = true;
	}

	/** The fencing token of the hold, or -1 for an acquisition. */
	public long fencingToken() {
		return this.fencingToken;
	}

	void setFencingToken(long fencingToken) {
		this.fencingToken = fencingToken;
	}

}
