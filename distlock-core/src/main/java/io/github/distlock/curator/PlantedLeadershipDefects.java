package io.github.distlock.curator;

/**
 * Two fixed leadership defects that the history checker's tests may plant back, to show
 * that the checker finds them; both off unless a test in this package turns them on.
 * Nothing else sets them.
 */
final class PlantedLeadershipDefects {

	/**
	 * A waiting member whose client replaced its session resumes with its node of the old
	 * session (which the server may still keep) instead of making it anew: it drops out
	 * of the election silently once that session expires.
	 */
	static volatile boolean resumeWithOldSessionNode;

	/**
	 * A member whose session was lost forgets its node without deleting it: its new node
	 * queues behind its own stale one until the server expires the old session.
	 */
	static volatile boolean lostKeepsOldNode;

	private PlantedLeadershipDefects() {
	}

}
