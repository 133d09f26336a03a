package io.github.distlock.curator;

/**
 * Defects that the history checker's own tests plant in the engine for one run, to show
 * that the checker finds them (docs/failure-model.md, "History checker"). For those tests
 * only: every switch is off in the product, is package-private, and is set only by a test
 * class of this package. The engine reads each one at the one place whose check it
 * removes.
 */
final class PlantedDefects {

	/**
	 * The downgrade of a write hold is not checked when the read lock is asked for
	 * ({@code CuratorLock}): a hold lost or in doubt is entered as if held.
	 */
	static volatile boolean downgradeUncheckedWhenAsked;

	/**
	 * The downgrade of a write hold is not checked when its read node would be granted
	 * ({@code QueuePosition}): neither the write hold's state nor the read node's
	 * session.
	 */
	static volatile boolean downgradeUncheckedAtGrant;

	/**
	 * Nodes at the ceiling of sequence numbers are sorted by name (their protected-mode
	 * UUID) instead of by creation zxid ({@code QueueDriver}).
	 */
	static volatile boolean ceilingSortedByName;

	/**
	 * A waiting member whose client replaced its session resumes with its node of the old
	 * session (which the server may still keep) instead of making it anew: it drops out
	 * of the election silently once that session expires ({@code QueuePosition}).
	 */
	static volatile boolean resumeWithOldSessionNode;

	/**
	 * A member whose session was lost forgets its node without deleting it: its new node
	 * queues behind its own stale one until the server expires the old session
	 * ({@code Participant}).
	 */
	static volatile boolean lostKeepsOldNode;

	/**
	 * The parent's delete or data change is not heeded by the rule that proves a new
	 * mutex node alone from its number ({@code LoneQueues}): a parent reaped and made
	 * again may restart its count and give our node the number that would prove it.
	 */
	static volatile boolean parentWatchIgnored;

	private PlantedDefects() {
	}

}
