package io.github.distlock.core;

/**
 * An operation named a lock's holder by its fencing token, and no holder has that token
 * any more: the holder the operator saw released the lock or lost it since.
 */
public class LockHolderChangedException extends DistributedLockException {

	public LockHolderChangedException(String message) {
		super(message);
	}

}
