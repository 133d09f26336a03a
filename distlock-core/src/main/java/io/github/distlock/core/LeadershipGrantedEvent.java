package io.github.distlock.core;

/**
 * This instance became the leader of a group. Published once per tenure, on distlock's
 * event thread, in order with the {@link LeadershipRevokedEvent} that ends it.
 *
 * @param group the group
 * @param epoch the tenure's epoch: the creating zxid of this instance's latch node,
 * greater than the epoch of every earlier leader of the group (a fencing token)
 * @param memberId this instance's member id in the group ({@link Leadership#memberId()})
 */
public record LeadershipGrantedEvent(String group, long epoch, String memberId) {

}
