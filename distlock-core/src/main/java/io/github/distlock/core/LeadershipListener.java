package io.github.distlock.core;

/**
 * Told when this instance starts and stops leading a group, on distlock's event thread,
 * one event after the other: never on a ZooKeeper thread, and never twice for one tenure.
 * A listener that blocks delays later events, never the election itself.
 */
public interface LeadershipListener {

	/**
	 * This instance leads the group now.
	 * @param event the group and the tenure's epoch
	 */
	default void granted(LeadershipGrantedEvent event) {
	}

	/**
	 * This instance stopped leading the group.
	 * @param event the group and the epoch of the tenure that ended
	 */
	default void revoked(LeadershipRevokedEvent event) {
	}

	/**
	 * The leader of a group this instance observes changed.
	 * @param event the group, its leader now and before
	 */
	default void leaderChanged(LeaderChangedEvent event) {
	}

	/**
	 * A hand-off of this instance's tenure to another member ended, done or failed.
	 * @param event the group, the target, its epoch and how long it took
	 */
	default void handedOff(LeadershipHandOffEvent event) {
	}

}
