package io.github.distlock.annotation;

/**
 * What a {@link ScheduledOnce} job does about slots that passed while no instance ran it
 * (every instance stopped, say).
 */
public enum MissedRuns {

	/** Nothing: the job runs again at its next slot. */
	SKIP,

	/**
	 * One catch-up run, at once when an instance starts, for the latest missed slot if it
	 * is no older than {@link ScheduledOnce#catchUpWithin()}; however many slots were
	 * missed, and however many instances start, it runs once.
	 */
	RUN_ONCE

}
