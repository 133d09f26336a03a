package io.github.distlock.core;

/**
 * What tests of other packages may see of {@link LockScope}'s bookkeeping.
 */
public final class LockScopeTestAccess {

	private LockScopeTestAccess() {
	}

	/**
	 * Whether the scope of the given thread is remembered: not once its handles are
	 * closed.
	 */
	public static boolean remembers(Thread thread) {
		return LockScope.remembers(thread);
	}

}
