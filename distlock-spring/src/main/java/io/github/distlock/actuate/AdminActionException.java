package io.github.distlock.actuate;

import org.jspecify.annotations.Nullable;

/**
 * An operator's action on the locks did not happen: its input was malformed, the lock or
 * job was not there, the holder changed, or ZooKeeper could not be reached. The
 * {@linkplain #getOutcome() outcome} says which, and the HTTP status both the actuator
 * endpoint and the console answer with.
 */
public class AdminActionException extends RuntimeException {

	private final AdminOutcome outcome;

	/**
	 * Create an exception.
	 * @param outcome what kind of failure it is
	 * @param message what went wrong, naming the value at fault
	 * @param cause the failure of the lock engine, or {@code null}
	 */
	public AdminActionException(AdminOutcome outcome, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.outcome = outcome;
	}

	/**
	 * Return what kind of failure it is.
	 * @return the outcome, never {@link AdminOutcome#SUCCESS}
	 */
	public AdminOutcome getOutcome() {
		return this.outcome;
	}

}
