package io.github.distlock.core;

import org.jspecify.annotations.Nullable;

/**
 * A lock annotation or lock setting cannot work as written. Raised at startup whenever
 * the problem can be known then; the message names the method, the annotation and the
 * value.
 */
public class LockConfigurationException extends DistributedLockException {

	public LockConfigurationException(String message) {
		super(message);
	}

	public LockConfigurationException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
