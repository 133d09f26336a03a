package io.github.distlock.core;

import java.util.List;

/**
 * One group as ZooKeeper has it now, and this instance's part in it. Returned by
 * {@link Leadership#inspect(String)}.
 *
 * @param group the group
 * @param node the group's ZooKeeper node, relative to the namespace
 * @param member whether this instance takes part in the group's election
 * @param leader whether this instance leads the group now
 * @param epoch the epoch of this instance's tenure while it leads, else {@code 0}
 * @param participants the latch nodes of every participant (raw Curator
 * {@code LeaderLatch}es included), in queue order: the first leads, its fencing token is
 * its epoch
 */
public record LeadershipGroup(String group, String node, boolean member, boolean leader, long epoch,
		List<LockParticipant> participants) {

}
