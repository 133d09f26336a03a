package io.github.distlock.core;

import java.time.Instant;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * One run of a scheduled job: the slot it claimed, the node that ran it, when it started
 * and ended, how it went, and the fencing token of the job's lock it ran under. A manual
 * run ({@link ScheduledJobs#runNow(String)}) claims no slot: its slot is the time it was
 * asked for, and the schedule's slots run as before.
 *
 * @param job the job's name
 * @param slot the planned firing time the run claimed
 * @param node the instance that ran it
 * @param startedAt when it claimed its slot, by the clock of its instance
 * @param endedAt when it ended; {@code null} while it runs (and for a run whose instance
 * died before it could tell, until another instance noticed)
 * @param outcome how it went
 * @param fencingToken the fencing token of the job's lock held by the run
 * @param manual whether the run was asked for outside the schedule, rather than the run
 * of a slot
 * @see ScheduledJobs
 */
public record JobRun(String job, Instant slot, String node, Instant startedAt, @Nullable Instant endedAt,
		JobOutcome outcome, long fencingToken, boolean manual) {

	/**
	 * Create the run of a slot of the schedule.
	 * @param job the job's name
	 * @param slot the planned firing time the run claimed
	 * @param node the instance that ran it
	 * @param startedAt when it claimed its slot
	 * @param endedAt when it ended, {@code null} while it runs
	 * @param outcome how it went
	 * @param fencingToken the fencing token of the job's lock held by the run
	 */
	public JobRun(String job, Instant slot, String node, Instant startedAt, @Nullable Instant endedAt,
			JobOutcome outcome, long fencingToken) {
		this(job, slot, node, startedAt, endedAt, outcome, fencingToken, false);
	}

	/**
	 * Return the run of a scheduled job that the current thread runs now.
	 * @return the run, empty outside the method of a job's run
	 */
	public static Optional<JobRun> current() {
		return Optional.ofNullable(JobRunContext.current());
	}

	/** How long after its slot the run started. */
	public java.time.Duration lag() {
		return java.time.Duration.between(this.slot, this.startedAt);
	}

	/**
	 * Return this run ended at the given time with the given outcome.
	 * @param at when it ended
	 * @param how how it went
	 * @return the ended run
	 */
	public JobRun ended(Instant at, JobOutcome how) {
		return new JobRun(this.job, this.slot, this.node, this.startedAt, at, how, this.fencingToken, this.manual);
	}

}
