package io.github.distlock.core;

import java.time.Instant;

/**
 * A partition this instance owns.
 *
 * @param index the partition, from 0 to the group's count (excluded)
 * @param epoch the creating zxid of this ownership's owner node: larger for each later
 * owner of the same partition, a fencing token for what the owner writes
 * @param since when this instance learned it owns the partition
 */
public record OwnedPartition(int index, long epoch, Instant since) {

}
