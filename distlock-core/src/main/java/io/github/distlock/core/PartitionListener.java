package io.github.distlock.core;

/**
 * Told when this instance starts and stops owning a partition, on distlock's event
 * thread, one event after the other (never on a ZooKeeper thread). A revocation waits for
 * {@link #revoked} to return before the partition is handed over: a listener that blocks
 * delays the hand-over and later events.
 */
public interface PartitionListener {

	/**
	 * This instance owns a partition now.
	 * @param event the group, the partition and the ownership's epoch
	 */
	default void assigned(PartitionAssignedEvent event) {
	}

	/**
	 * This instance stops owning a partition.
	 * @param event the group, the partition, the epoch of the ownership that ends and why
	 */
	default void revoked(PartitionRevokedEvent event) {
	}

}
