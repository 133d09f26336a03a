package io.github.distlock.core;

/**
 * This instance owns a partition now: its owner node was created. Published on distlock's
 * event thread, before the {@link PartitionRevokedEvent} of the same epoch.
 *
 * @param group the partitioned group
 * @param index the partition
 * @param epoch the creating zxid of the owner node ({@link OwnedPartition#epoch()})
 * @param memberId this instance's member id ({@link Leadership#memberId()})
 */
public record PartitionAssignedEvent(String group, int index, long epoch, String memberId) {

}
