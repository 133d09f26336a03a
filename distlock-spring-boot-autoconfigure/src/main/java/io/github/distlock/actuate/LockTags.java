package io.github.distlock.actuate;

import java.util.Locale;

import io.github.distlock.core.LockKind;

/**
 * Names and values of the tags (and low-cardinality key values) distlock's metrics and
 * observations carry.
 */
final class LockTags {

	static final String KIND = "kind";

	static final String NAME = "name";

	static final String OUTCOME = "outcome";

	static final String STATE = "state";

	static final String ACQUIRED = "acquired";

	static final String TIMEOUT = "timeout";

	static final String ERROR = "error";

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
