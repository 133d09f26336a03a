package io.github.distlock.core;

import java.time.Instant;

/**
 * The leader of a group as an observer sees it ({@link Leadership#observe(String)}),
 * whoever leads: a distlock member or a raw Curator {@code LeaderLatch}.
 *
 * @param group the group
 * @param memberId the leader's member id ({@link LockParticipant#memberId()}: a raw
 * {@code LeaderLatch}'s participant id)
 * @param epoch the epoch of its tenure: the creating zxid of its latch node
 * @param since when this instance saw its tenure begin; for a leader that already led
 * when the observation began, when it began
 */
public record ObservedLeader(String group, String memberId, long epoch, Instant since) {

}
