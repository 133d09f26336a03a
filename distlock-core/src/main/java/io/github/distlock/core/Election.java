package io.github.distlock.core;

import java.util.List;
import java.util.Optional;

/**
 * A leader election as {@link LockAdmin#leaders()} found it, whoever takes part.
 *
 * @param group the group
 * @param node the group's ZooKeeper node, relative to the namespace
 * @param members the latch nodes of every member (raw Curator {@code LeaderLatch}es
 * included), in queue order: the first leads
 */
public record Election(String group, String node, List<LockParticipant> members) {

	/**
	 * The member that leads now.
	 * @return the first member, or empty if the group has none
	 */
	public Optional<LockParticipant> leader() {
		return this.members.isEmpty() ? Optional.empty() : Optional.of(this.members.get(0));
	}

	/**
	 * The epoch of the leader's tenure: its latch node's creating zxid, the fencing token
	 * its calls carry.
	 * @return the leader's epoch, or {@code 0} if the group has no member
	 */
	public long epoch() {
		return leader().map(LockParticipant::fencingToken).orElse(0L);
	}

}
