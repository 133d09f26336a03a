package io.github.distlock.core;

/**
 * Why a firing of a scheduled job did not run it.
 */
public enum JobSkip {

	/** Another run claimed the slot already, or a later one. */
	SLOT_TAKEN,

	/** The job is paused cluster-wide. */
	PAUSED,

	/**
	 * The job's lock is held: a run of the job is still going on elsewhere (a run never
	 * overlaps another), or another instance is claiming this very slot.
	 */
	LOCKED,

	/** The schedule has no slot at or before the firing's time. */
	NO_SLOT,

	/**
	 * A catch-up at start found no slot to catch up: none was missed, the job never ran,
	 * or the latest missed slot is older than the catch-up window.
	 */
	NOTHING_MISSED,

	/**
	 * This instance is draining ({@link LockAdmin#drain(java.time.Duration)}): it takes
	 * no new locks, so it runs no job until the drain ends; another instance may run the
	 * slot.
	 */
	DRAINING,

	/**
	 * No one held the job's lock, yet this instance could not take it: its locks had no
	 * connection to ZooKeeper (for as long as a firing waits for one, a few seconds), so
	 * another instance may run the slot, or a catch-up.
	 */
	DISCONNECTED

}
