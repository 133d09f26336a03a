package io.github.distlock.curator;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockState;

/**
 * One outermost acquisition of a lock, shared by the handles of its re-entries. It is
 * released when its last handle is closed, and follows the connection state while held.
 */
final class Hold {

	private final LockKind kind;

	private final LockPath path;

	private final String thread;

	private final Instant since;

	private final long token;

	private final long clientInstance;

	private final Acquisition acquisition;

	private final AtomicInteger handles = new AtomicInteger();

	private final AtomicReference<LockState> state = new AtomicReference<>(LockState.HELD);

	/**
	 * Create a hold.
	 * @param kind the kind of lock
	 * @param path the lock path
	 * @param token the fencing token
	 * @param clientInstance Curator's instance index of the ZooKeeper handle whose
	 * session owns the lock node: when Curator replaces the handle, that session is gone,
	 * and so is the lock
	 * @param acquisition the acquisition that took the lock
	 */
	Hold(LockKind kind, LockPath path, long token, long clientInstance, Acquisition acquisition) {
		this.kind = kind;
		this.path = path;
		this.thread = Thread.currentThread().getName();
		this.since = Instant.now();
		this.token = token;
		this.clientInstance = clientInstance;
		this.acquisition = acquisition;
	}

	long clientInstance() {
		return this.clientInstance;
	}

	/** The acquisition that took the lock, reporting its end. */
	Acquisition acquisition() {
		return this.acquisition;
	}

	long token() {
		return this.token;
	}

	Instant since() {
		return this.since;
	}

	LockState state() {
		return this.state.get();
	}

	void addHandle() {
		this.handles.incrementAndGet();
	}

	/** Count one handle closed; return whether it was the last one. */
	boolean removeHandle() {
		boolean last = this.handles.decrementAndGet() == 0;
		if (last) {
			this.state.set(LockState.RELEASED);
		}
		return last;
	}

	/** The connection was suspended. */
	void suspended(boolean suspendedIsLost) {
		this.state.compareAndSet(LockState.HELD, suspendedIsLost ? LockState.LOST : LockState.IN_DOUBT);
	}

	/** The connection came back within the session. */
	void reconnected() {
		this.state.compareAndSet(LockState.IN_DOUBT, LockState.HELD);
	}

	/**
	 * The session was lost.
	 * @return whether this changed the state (the lock was held or in doubt)
	 */
	boolean lost() {
		LockState previous = this.state
			.getAndUpdate((current) -> (current == LockState.RELEASED) ? current : LockState.LOST);
		return previous == LockState.HELD || previous == LockState.IN_DOUBT;
	}

	HeldLock snapshot() {
		return new HeldLock(this.kind, this.path, this.thread, this.since, this.token, this.state.get());
	}

}
