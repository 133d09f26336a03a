package io.github.distlock.core;

import java.util.List;
import java.util.Optional;

/**
 * One group as ZooKeeper has it now, and this instance's part in it. Returned by
 * {@link Leadership#inspect(String)}.
 *
 * @param group the group
 * @param memberId this instance's member id ({@link Leadership#memberId()})
 * @param node the group's ZooKeeper node, relative to the namespace
 * @param member whether this instance takes part in the group's election
 * @param leader whether this instance leads the group now
 * @param epoch the epoch of this instance's tenure while it leads, else {@code 0}
 * @param participants the latch nodes of every participant (raw Curator
 * {@code LeaderLatch}es included), in queue order: the first leads, its fencing token is
 * its epoch
 */
public record LeadershipGroup(String group, String memberId, String node, boolean member, boolean leader, long epoch,
		List<LockParticipant> participants) {

	/**
	 * The member id of the leader now.
	 * @return the {@linkplain LockParticipant#memberId() member id} of the first
	 * participant, or empty if the group has none
	 */
	public Optional<String> leaderId() {
		return this.participants.isEmpty() ? Optional.empty() : Optional.of(this.participants.get(0).memberId());
	}

	/**
	 * The member ids of the participants, in queue order.
	 * @return the {@linkplain LockParticipant#memberId() member ids}, the leader's first
	 */
	public List<String> memberIds() {
		return this.participants.stream().map(LockParticipant::memberId).toList();
	}

}
