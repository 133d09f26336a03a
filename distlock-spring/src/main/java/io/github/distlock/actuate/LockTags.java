package io.github.distlock.actuate;

import java.util.Locale;

import io.github.distlock.core.LockKind;

/**
 * Names and values of the tags (and low-cardinality key values) distlock's metrics and
 * observations carry. An acquisition's {@code outcome} values are named as the
 * {@link io.github.distlock.core.LockEventListener.AcquisitionListener} callbacks that
 * end it: {@code acquired}, {@code timed_out}, {@code cancelled}, {@code failed}.
 */
final class LockTags {

	static final String KIND = "kind";

	static final String NAME = "name";

	static final String OUTCOME = "outcome";

	static final String ACQUIRED = "acquired";

	static final String TIMED_OUT = "timed_out";

	static final String FAILED = "failed";

	static final String CANCELLED = "cancelled";

	private static final String[] KINDS;

	static {
		LockKind[] kinds = LockKind.values();
		KINDS = new String[kinds.length];
		for (LockKind kind : kinds) {
			KINDS[kind.ordinal()] = kind.name().toLowerCase(Locale.ROOT);
		}
	}

	private LockTags() {
	}

	/**
	 * The value naming a kind of lock: {@code mutex} (reentrant or not), {@code read},
	 * {@code write}, {@code semaphore} or {@code leader}.
	 */
	static String kind(LockKind kind) {
		return KINDS[kind.ordinal()];
	}

}
