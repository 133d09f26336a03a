package io.github.distlock.core;

/**
 * A {@code @LeaderOnly(onNotLeader = THROW)} method was called on an instance that does
 * not lead its group: the method did not run.
 */
public class NotLeaderException extends DistributedLockException {

	private final String group;

	public NotLeaderException(String message, String group) {
		super(message);
		this.group = group;
	}

	/** The group this instance does not lead. */
	public String getGroup() {
		return this.group;
	}

}
