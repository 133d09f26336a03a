package io.github.distlock.annotation;

/**
 * What a {@link PartitionOwner @PartitionOwner} method does when it is called on an
 * instance that does not own the partition of the call's key. In no case does the method
 * run.
 */
public enum OnNotOwner {

	/**
	 * Do not run the method and return the empty value of its return type, as
	 * {@link OnNotLeader#SKIP} does: {@code null}, {@code Optional.empty()} or the
	 * default of a primitive.
	 */
	SKIP,

	/**
	 * Throw a {@link io.github.distlock.core.NotPartitionOwnerException} naming the
	 * group, the partition and the key.
	 */
	THROW

}
