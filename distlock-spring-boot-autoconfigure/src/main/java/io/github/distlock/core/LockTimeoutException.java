package io.github.distlock.core;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A lock was not acquired within its wait time: another holder kept it, or ZooKeeper
 * could not be reached in time (the message says which).
 */
public class LockTimeoutException extends DistributedLockException {

	private final LockPath path;

	private final Duration waitTime;

	public LockTimeoutException(String message, LockPath path, Duration waitTime, @Nullable Throwable cause) {
		super(message, cause);
		this.path = path;
		this.waitTime = waitTime;
	}

	/** Path of the lock that was not acquired. */
	public LockPath getPath() {
		return this.path;
	}

	/** How long the caller was prepared to wait. */
	public Duration getWaitTime() {
		return this.waitTime;
	}

}
