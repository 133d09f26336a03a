package io.github.distlock.curator;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LocksDrainingException;
import io.github.distlock.core.LockPath;

/**
 * Whether the locks of one client are draining, and since when: while they are, every new
 * acquisition is refused with a {@link LocksDrainingException}, and the parts that take
 * locks of their own accord (the leader election) are told to stand aside until the drain
 * ends. Beginning and ending are idempotent and ordered by this object's monitor; the
 * state is read without it.
 */
final class Drain {

	private final List<Listener> listeners = new CopyOnWriteArrayList<>();

	// When the drain began, null if not draining. Written holding the monitor; read as a
	// field by every acquisition (CuratorLock), so that the walk of an uncontended lock
	// call enters no method of this class (package docs, "The walk of one lock call").
	volatile @Nullable Instant since;

	/** Tell a listener when a drain begins and ends, from now on. */
	void addListener(Listener listener) {
		this.listeners.add(listener);
	}

	void removeListener(Listener listener) {
		this.listeners.remove(listener);
	}

	/**
	 * Begin draining, unless draining already; the listeners are told before this
	 * returns.
	 * @return whether the drain began now
	 */
	synchronized boolean begin() {
		if (this.since != null) {
			return false;
		}
		this.since = Instant.now();
		this.listeners.forEach(Listener::drained);
		return true;
	}

	/**
	 * End the drain, if draining; the listeners are told before this returns.
	 * @return whether the drain ended now
	 */
	synchronized boolean end() {
		if (this.since == null) {
			return false;
		}
		this.since = null;
		this.listeners.forEach(Listener::undrained);
		return true;
	}

	/** When the drain began, or {@code null} if not draining. */
	@Nullable Instant since() {
		return this.since;
	}

	/**
	 * The refusal of a new acquisition of the given lock, or {@code null} if not
	 * draining.
	 */
	@Nullable LocksDrainingException refusal(LockPath path) {
		Instant since = this.since;
		return (since != null) ? new LocksDrainingException("Lock '" + path + "' cannot be acquired: this instance "
				+ "is draining (since " + since + "); it takes no new locks until undrain()") : null;
	}

	/** Told when a drain begins and ends, holding the drain's monitor. */
	interface Listener {

		void drained();

		void undrained();

	}

}
