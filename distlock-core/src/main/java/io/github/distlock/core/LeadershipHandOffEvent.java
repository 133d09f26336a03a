package io.github.distlock.core;

import java.time.Duration;

/**
 * A hand-off of this instance's tenure ({@link Leadership#transferTo}, or a preferred
 * leader's) ended. Published on distlock's event thread, in order with the tenures'
 * events.
 *
 * @param group the group
 * @param memberId this instance's member id, the leader that handed off
 * @param targetId the member handed to
 * @param epoch the target's epoch once it was first, or 0 if the hand-off failed
 * @param duration from the start of the hand-off until ZooKeeper had the target first (or
 * until it failed)
 */
public record LeadershipHandOffEvent(String group, String memberId, String targetId, long epoch, Duration duration) {

	/**
	 * Whether the target leads now.
	 * @return whether the hand-off succeeded
	 */
	public boolean succeeded() {
		return this.epoch != 0;
	}

}
