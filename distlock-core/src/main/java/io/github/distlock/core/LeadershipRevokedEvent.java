package io.github.distlock.core;

/**
 * This instance is no longer the leader of a group: it left or relinquished the group,
 * its session ended, its latch node was deleted, or the connection was suspended and the
 * {@link ConnectionLossPolicy} counts that as lost. Published once per tenure, on
 * distlock's event thread, after the {@link LeadershipGrantedEvent} of the same epoch.
 *
 * @param group the group
 * @param epoch the epoch of the tenure that ended
 * @param memberId this instance's member id in the group ({@link Leadership#memberId()})
 */
public record LeadershipRevokedEvent(String group, long epoch, String memberId) {

}
