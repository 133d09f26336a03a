package io.github.distlock.core;

/**
 * What a holder knows about a lock it acquired.
 */
public enum LockState {

	/** Held: the session that owns the lock node is connected. */
	HELD,

	/**
	 * In doubt: the connection to ZooKeeper is suspended, so another process may hold the
	 * lock if the session expires meanwhile. Only seen under
	 * {@link ConnectionLossPolicy#LOST}; under the default policy a suspended lock is
	 * {@link #LOST} at once.
	 */
	IN_DOUBT,

	/**
	 * Lost: the session ended or the connection was suspended; another holder may have it
	 * now.
	 */
	LOST,

	/** Released by its holder. */
	RELEASED

}
