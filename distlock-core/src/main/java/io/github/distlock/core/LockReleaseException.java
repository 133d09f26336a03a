package io.github.distlock.core;

import org.jspecify.annotations.Nullable;

/**
 * Releasing a lock failed. When the locked method itself threw, this exception is added
 * to the method's exception as suppressed instead of replacing it.
 */
public class LockReleaseException extends DistributedLockException {

	public LockReleaseException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
