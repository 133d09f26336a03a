package io.github.distlock.core;

/**
 * The holder of a lock that cannot be entered twice asked for it again. Raised at once
 * instead of letting the thread wait for itself until its wait time runs out (or
 * forever).
 */
public class LockReentryException extends DistributedLockException {

	public LockReentryException(String message) {
		super(message);
	}

}
