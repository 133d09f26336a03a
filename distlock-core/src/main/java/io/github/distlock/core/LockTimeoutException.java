package io.github.distlock.core;

import java.time.Duration;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * A lock was not acquired within its wait time: another holder kept it, or ZooKeeper
 * could not be reached in time (the message says which).
 */
public class LockTimeoutException extends DistributedLockException {

	private final LockPath path;

	private final Duration waitTime;

	private final @Nullable Duration waited;

	/**
	 * Create an exception; how long the acquisition waited is taken from the cause, if it
	 * is a {@code LockTimeoutException} that knows.
	 * @param message the message
	 * @param path the path of the lock
	 * @param waitTime how long the caller was prepared to wait
	 * @param cause the cause, or {@code null}
	 */
	public LockTimeoutException(String message, LockPath path, Duration waitTime, @Nullable Throwable cause) {
		this(message, path, waitTime, null, cause);
	}

	/**
	 * Create an exception.
	 * @param message the message
	 * @param path the path of the lock
	 * @param waitTime how long the caller was prepared to wait
	 * @param waited how long the acquisition waited when it gave up, or {@code null} to
	 * take it from the cause
	 * @param cause the cause, or {@code null}
	 */
	public LockTimeoutException(String message, LockPath path, Duration waitTime, @Nullable Duration waited,
			@Nullable Throwable cause) {
		super(message, cause);
		this.path = path;
		this.waitTime = waitTime;
		this.waited = (waited != null) ? waited
				: (cause instanceof LockTimeoutException timeout) ? timeout.waited : null;
	}

	/** Path of the lock that was not acquired. */
	public LockPath getPath() {
		return this.path;
	}

	/** How long the caller was prepared to wait. */
	public Duration getWaitTime() {
		return this.waitTime;
	}

	/**
	 * How long the acquisition waited before it gave up, measured when it gave up: at its
	 * deadline, or earlier for a try that found the lock taken. The calling thread may
	 * learn of it a little later, when it is scheduled again.
	 * @return the time waited, or empty where it was not measured
	 */
	public Optional<Duration> getWaited() {
		return Optional.ofNullable(this.waited);
	}

}
