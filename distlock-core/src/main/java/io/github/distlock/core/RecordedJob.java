package io.github.distlock.core;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * A scheduled job as its record in ZooKeeper has it, cluster-wide, as
 * {@link LockAdmin#jobs()} found it: whichever instances run it, and whether or not this
 * instance knows the job.
 *
 * @param name the job's name
 * @param schedule the description of its schedule as the instance that last claimed a
 * slot (or first registered the job) gave it, such as {@code cron 0 0 * * * * (UTC)};
 * {@code null} in a record written before schedules were recorded
 * @param paused whether its firings skip, cluster-wide
 * @param lastSlot the latest slot claimed, or {@code null} if none was
 * @param nextSlot the schedule's first slot after the latest slot claimed (after the time
 * of registration while none was claimed), by the clock of the instance that wrote it, or
 * {@code null} if the schedule has none or the record does not say; while the job is
 * paused, or no instance runs it, it can lie in the past
 * @param runs the last runs, newest first
 */
public record RecordedJob(String name, @Nullable String schedule, boolean paused, @Nullable Instant lastSlot,
		@Nullable Instant nextSlot, List<JobRun> runs) {

	public RecordedJob {
		runs = List.copyOf(runs);
	}

	/**
	 * The last run: the run of the latest slot claimed, or a manual run after it.
	 * @return the newest run, or empty if the job never ran
	 */
	public Optional<JobRun> lastRun() {
		return this.runs.isEmpty() ? Optional.empty() : Optional.of(this.runs.get(0));
	}

}
