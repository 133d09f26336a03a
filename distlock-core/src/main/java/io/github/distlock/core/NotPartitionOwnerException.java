package io.github.distlock.core;

/**
 * A {@code @PartitionOwner(onNotOwner = THROW)} method was called on an instance that
 * does not own the partition of the call's key: the method did not run.
 */
public class NotPartitionOwnerException extends DistributedLockException {

	private final String group;

	private final int partition;

	private final String key;

	public NotPartitionOwnerException(String message, String group, int partition, String key) {
		super(message);
		this.group = group;
		this.partition = partition;
		this.key = key;
	}

	/** The partitioned group. */
	public String getGroup() {
		return this.group;
	}

	/** The partition of the key, which this instance does not own. */
	public int getPartition() {
		return this.partition;
	}

	/**
	 * The call's key, as hashed ({@code String.valueOf} of the key expression's value).
	 */
	public String getKey() {
		return this.key;
	}

}
