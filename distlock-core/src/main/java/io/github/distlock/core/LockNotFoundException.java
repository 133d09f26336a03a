package io.github.distlock.core;

/**
 * An operation on a lock found no holder of it: the path is not in use now, or its
 * holders are gone.
 */
public class LockNotFoundException extends DistributedLockException {

	public LockNotFoundException(String message) {
		super(message);
	}

}
