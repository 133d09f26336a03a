package io.github.distlock.core;

/**
 * How a run of a scheduled job went, as its record in ZooKeeper says.
 *
 * @see JobRun
 */
public enum JobOutcome {

	/** The run has claimed its slot and has not ended yet. */
	RUNNING,

	/** The run ended normally. */
	SUCCEEDED,

	/** The run ended with an exception. */
	FAILED,

	/**
	 * The run lost its lock while it ran (its instance's session ended, or the instance
	 * died): it may not have done all its work, and its slot is not run again.
	 */
	INTERRUPTED

}
