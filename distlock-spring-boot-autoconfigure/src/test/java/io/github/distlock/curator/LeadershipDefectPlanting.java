package io.github.distlock.curator;

/**
 * Plants a fixed leadership defect back into the engine, for the history checker's
 * planted-defect runs, and removes it again.
 */
public final class LeadershipDefectPlanting {

	private LeadershipDefectPlanting() {
	}

	/**
	 * Plant one defect, or none.
	 * @param defect {@code "resume-old-session-node"}, {@code "lost-keeps-old-node"} or
	 * {@code "none"}
	 */
	public static void plant(String defect) {
		PlantedLeadershipDefects.resumeWithOldSessionNode = defect.equals("resume-old-session-node");
		PlantedLeadershipDefects.lostKeepsOldNode = defect.equals("lost-keeps-old-node");
		if (!defect.equals("none") && !PlantedLeadershipDefects.resumeWithOldSessionNode
				&& !PlantedLeadershipDefects.lostKeepsOldNode) {
			throw new IllegalArgumentException("No such planted defect: " + defect);
		}
	}

}
