package io.github.distlock.core;

/**
 * This instance no longer owns a partition. Published on distlock's event thread, once
 * per ownership, after its {@link PartitionAssignedEvent}; when this instance gives the
 * partition up itself, its owner node is deleted (so another instance may own it) only
 * after every {@link PartitionListener} returned from this event and the work entered
 * under the ownership ({@link Partitions#enter(int)}) ended.
 *
 * @param group the partitioned group
 * @param index the partition
 * @param epoch the epoch of the ownership that ended
 * @param reason why it ended
 */
public record PartitionRevokedEvent(String group, int index, long epoch, Reason reason) {

	/** Why an ownership ended. */
	public enum Reason {

		/** The live members changed, and another member should own the partition. */
		REBALANCED,

		/** This instance left the group ({@link Partitions#leave()}, or a close). */
		LEFT,

		/** The locks of this instance began to drain. */
		DRAINED,

		/**
		 * The connection was suspended and the {@link ConnectionLossPolicy} counts that
		 * as lost; the owner node is deleted once the connection returns in the same
		 * session.
		 */
		SUSPENDED,

		/** The session that owned the owner node ended: the node ended with it. */
		SESSION_LOST,

		/** Someone else deleted the owner node. */
		NODE_DELETED

	}

}
