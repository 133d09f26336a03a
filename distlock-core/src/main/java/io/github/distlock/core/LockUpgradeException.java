package io.github.distlock.core;

/**
 * A thread holding the read side of a read/write lock asked for the write side. The write
 * side waits for every reader, this thread included, so waiting would never end; it is
 * refused at once. Release the read lock first, or take the write lock from the start (a
 * writer may take the read side too).
 */
public class LockUpgradeException extends DistributedLockException {

	public LockUpgradeException(String message) {
		super(message);
	}

}
