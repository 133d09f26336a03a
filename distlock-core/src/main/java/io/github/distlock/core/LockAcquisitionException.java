package io.github.distlock.core;

import org.jspecify.annotations.Nullable;

/**
 * Acquiring a lock failed for a reason other than a timeout: ZooKeeper answered with an
 * error, or the waiting thread was interrupted (its interrupt flag is kept).
 */
public class LockAcquisitionException extends DistributedLockException {

	public LockAcquisitionException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
