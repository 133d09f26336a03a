package io.github.distlock.curator;

import java.util.Set;

/**
 * Plants defects in the engine for the history checker's opt-in runs that show the
 * checker finds them (docs/failure-model.md, "History checker"): the test side of
 * {@link PlantedDefects}, whose switches only this package can reach. For those tests
 * only.
 */
public final class PlantedDefectSwitch {

	private PlantedDefectSwitch() {
	}

	/**
	 * Plant the given defects, and no others, until {@link #clear()}.
	 * @param defects the defects
	 */
	public static void plant(Set<Defect> defects) {
		PlantedDefects.downgradeUncheckedWhenAsked = defects.contains(Defect.DOWNGRADE_UNCHECKED_WHEN_ASKED);
		PlantedDefects.downgradeUncheckedAtGrant = defects.contains(Defect.DOWNGRADE_UNCHECKED_AT_GRANT);
		PlantedDefects.ceilingSortedByName = defects.contains(Defect.CEILING_SORTED_BY_NAME);
		PlantedDefects.resumeWithOldSessionNode = defects.contains(Defect.RESUME_WITH_OLD_SESSION_NODE);
		PlantedDefects.lostKeepsOldNode = defects.contains(Defect.LOST_KEEPS_OLD_NODE);
	}

	/** Take every planted defect out again. */
	public static void clear() {
		plant(Set.of());
	}

	/** A defect that can be planted. */
	public enum Defect {

		/** {@code CuratorLock} does not check a downgraded write hold's state. */
		DOWNGRADE_UNCHECKED_WHEN_ASKED,

		/**
		 * {@code QueuePosition} grants a downgrade's read node without checking the write
		 * hold.
		 */
		DOWNGRADE_UNCHECKED_AT_GRANT,

		/**
		 * {@code QueueDriver} sorts nodes at the ceiling of sequence numbers by their
		 * protected-mode UUID instead of their creation order.
		 */
		CEILING_SORTED_BY_NAME,

		/**
		 * A leadership member resumes with its node of a session its client replaced,
		 * instead of making it anew ({@code QueuePosition}).
		 */
		RESUME_WITH_OLD_SESSION_NODE,

		/**
		 * A leadership member forgets its node on a lost session without deleting it
		 * ({@code Participant}).
		 */
		LOST_KEEPS_OLD_NODE

	}

}
