package io.github.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Jobs that run once per slot of their schedule across the cluster, and their records:
 * the last slot claimed, the last runs, and whether the job is paused. Behind
 * {@code @ScheduledOnce}; also the bean applications inject to look at a job or to pause
 * and resume it.
 * <p>
 * A firing claims its slot, the latest planned time of the schedule not after the
 * instance's clock, with a conditional write to the job's record under the job's lock; a
 * slot claimed once is never run again, by any instance, whatever the clocks say.
 */
public interface ScheduledJobs {

	/**
	 * Return the last run of the job, as its record in ZooKeeper says: the one that
	 * claimed the latest slot.
	 * @param job the job's name
	 * @return the run, empty if the job never ran
	 * @throws LockAcquisitionException if ZooKeeper could not be read
	 */
	Optional<JobRun> lastRun(String job);

	/**
	 * Return the last runs of the job, newest first, as far as its record keeps them.
	 * @param job the job's name
	 * @return the runs, empty if the job never ran
	 * @throws LockAcquisitionException if ZooKeeper could not be read
	 */
	List<JobRun> runs(String job);

	/**
	 * Pause the job on every instance: its firings skip until it is resumed. Returns once
	 * ZooKeeper has it; a run going on now finishes.
	 * @param job the job's name
	 * @throws LockAcquisitionException if ZooKeeper could not be written
	 */
	void pause(String job);

	/**
	 * Resume a paused job on every instance: its next firing runs it. Slots that passed
	 * while it was paused are not run.
	 * @param job the job's name
	 * @throws LockAcquisitionException if ZooKeeper could not be written
	 */
	void resume(String job);

	/**
	 * Return whether the job is paused.
	 * @param job the job's name
	 * @return whether it is
	 * @throws LockAcquisitionException if ZooKeeper could not be read
	 */
	boolean isPaused(String job);

	/**
	 * Run the job once now, outside its schedule, on this instance and under its lock:
	 * the run is recorded as a manual run, not as the run of a slot, so the scheduled
	 * firings go on as before. Blocks until the run ends.
	 * @param job the job's name
	 * @return the run, ended
	 * @throws LockConfigurationException if this instance has no such job, or none it can
	 * run outside its schedule
	 * @throws IllegalStateException if a run of the job is going on now (on any instance)
	 * @throws UnsupportedOperationException if this implementation cannot do it
	 */
	default JobRun runNow(String job) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot run a job outside its schedule");
	}

	/**
	 * Return the jobs this instance schedules.
	 * @return the jobs, by name
	 */
	List<ScheduledJob> jobs();

	/**
	 * Make a job known to this instance, as its {@code @ScheduledOnce} method does at
	 * startup.
	 * @param job the job
	 * @throws LockConfigurationException if another job of this instance has the name
	 */
	void register(ScheduledJob job);

	/**
	 * Make a job known to this instance with what its runs do, so that it can also be run
	 * outside its schedule ({@link #runNow(String)}), as its {@code @ScheduledOnce}
	 * method does at startup. Implementations that cannot run a job outside its schedule
	 * only register it.
	 * @param job the job
	 * @param body what a run does
	 * @throws LockConfigurationException if another job of this instance has the name
	 */
	default void register(ScheduledJob job, Callable<?> body) {
		register(job);
	}

	/**
	 * Fire the job: claim the slot the given time belongs to and, if this firing claimed
	 * it, run the body under the job's lock, recording the run. Blocks the calling thread
	 * (a scheduler's) for ZooKeeper's answers and the body.
	 * @param job the job
	 * @param now the time of the firing, by the instance's clock
	 * @param body what a run does
	 * @return what the firing did
	 * @throws Exception whatever the body threw (the run is then recorded
	 * {@link JobOutcome#FAILED})
	 * @throws LockAcquisitionException if ZooKeeper failed before the body ran
	 */
	JobFiring fire(ScheduledJob job, Instant now, Callable<?> body) throws Exception;

	/**
	 * Catch up on a missed slot, as an instance does at start for a job whose missed runs
	 * are run once: run the body for the latest slot not after the given time if that
	 * slot was not claimed, the job ran before, and the slot is no older than the given
	 * window.
	 * @param job the job
	 * @param now the time, by the instance's clock
	 * @param within how old the missed slot may be
	 * @param body what a run does
	 * @return what the catch-up did
	 * @throws Exception whatever the body threw
	 */
	JobFiring catchUp(ScheduledJob job, Instant now, Duration within, Callable<?> body) throws Exception;

}
