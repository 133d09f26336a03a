package io.github.distlock.core;

import java.time.Instant;

/**
 * Told what the firings of scheduled jobs do, for metrics and logs. Called on the thread
 * of the firing; implementations return quickly and never throw.
 */
public interface ScheduledJobListener {

	/**
	 * A run claimed its slot and starts.
	 * @param run the run, {@link JobOutcome#RUNNING}
	 */
	default void started(JobRun run) {
	}

	/**
	 * A run ended.
	 * @param run the run, with its outcome
	 */
	default void ended(JobRun run) {
	}

	/**
	 * A firing did not run the job.
	 * @param job the job's name
	 * @param slot the slot of the firing, if it had one
	 * @param reason why
	 */
	default void skipped(String job, @org.jspecify.annotations.Nullable Instant slot, JobSkip reason) {
	}

	/**
	 * A run found slots between the last claimed slot and its own that no instance ran.
	 * @param job the job's name
	 * @param count how many
	 */
	default void missed(String job, long count) {
	}

}
