package io.github.distlock.core;

import org.jspecify.annotations.Nullable;

/**
 * Base class of every error distlock raises. Messages name the method, the path template
 * and the resolved path wherever those are known.
 */
public class DistributedLockException extends RuntimeException {

	public DistributedLockException(String message) {
		super(message);
	}

	public DistributedLockException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
