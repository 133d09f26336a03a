package io.github.distlock.actuate;

import java.util.Locale;

/**
 * How an operator's action ended: the {@code outcome} of its audit event and of the
 * {@code distlock.admin.actions} counter, and the HTTP status it is answered with.
 */
public enum AdminOutcome {

	/** It was done. */
	SUCCESS(200),

	/** Its input was malformed: a path, protocol, token, job or wait that cannot be. */
	INVALID(400),

	/** The lock has no holder now, or this instance has no such job. */
	NOT_FOUND(404),

	/**
	 * The holder the operator saw is no longer the holder, or a run of the job is going
	 * on.
	 */
	CONFLICT(409),

	/** The lock engine cannot do it. */
	UNSUPPORTED(501),

	/** ZooKeeper could not be read or written. */
	UNAVAILABLE(503),

	/** It failed in another way (the audit event's {@code error} says how). */
	FAILED(500);

	private final int status;

	AdminOutcome(int status) {
		this.status = status;
	}

	/**
	 * Return the HTTP status of the answer.
	 * @return the status code
	 */
	public int status() {
		return this.status;
	}

	/**
	 * Return the value of the {@code outcome} tag and audit field.
	 * @return the name in lower case, such as {@code not_found}
	 */
	public String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
