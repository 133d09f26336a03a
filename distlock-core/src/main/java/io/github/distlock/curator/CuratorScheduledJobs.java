package io.github.distlock.curator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.JobFiring;
import io.github.distlock.core.JobOutcome;
import io.github.distlock.core.JobRun;
import io.github.distlock.core.JobRunContext;
import io.github.distlock.core.JobSkip;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.Locks;
import io.github.distlock.core.LocksDrainingException;
import io.github.distlock.core.ScheduledJob;
import io.github.distlock.core.ScheduledJobListener;
import io.github.distlock.core.ScheduledJobs;

/**
 * {@link ScheduledJobs} on distlock's locks and one {@link CuratorFramework} client.
 * <p>
 * A job's record is the persistent node {@code /jobs/<name>} under the client's
 * namespace, beside (not inside) the lock subtrees; its lock is the mutex
 * {@code jobs/<name>}. A firing:
 * <ol>
 * <li>computes its slot, the latest slot of the schedule not after the instance's clock
 * (the {@link Clock} given here);</li>
 * <li>reads the record and skips at once if the job is paused or the slot (or a later
 * one) is claimed: the common case of the instances that did not win costs one read;</li>
 * <li>tries the job's lock once, without waiting (a held lock means a run is going on,
 * and a run never overlaps another), and skips if it is taken; if the lock is free in
 * ZooKeeper, the locks do not see their connection yet (it came back, and the record was
 * read, before they heard of it), and the firing waits for the lock up to five seconds,
 * skipping {@link JobSkip#DISCONNECTED} if it is still free and not taken then;</li>
 * <li>under the lock, claims the slot with a write conditional on the version of the
 * record it read: whatever the clocks and whoever else writes, a slot is claimed once (a
 * write that lost to another retries from a fresh read, and then sees the slot
 * claimed);</li>
 * <li>runs the body, and records the run's end with another conditional write: its
 * outcome is {@link JobOutcome#INTERRUPTED} if the lock was no longer held when it ended
 * (the session was lost meanwhile, so another instance may have run meanwhile).</li>
 * </ol>
 * A run whose instance died is still {@link JobOutcome#RUNNING} in the record; the next
 * run, holding the lock the dead run held, marks it {@link JobOutcome#INTERRUPTED}. A
 * claimed slot is never run again: at most once per slot.
 * <p>
 * A firing while the locks drain ({@link io.github.distlock.core.LockAdmin#drain}) is
 * skipped {@link JobSkip#DRAINING} before it reads the record. A manual run
 * ({@link #runNow(String)}, for the jobs registered with their body) tries the job's lock
 * the same way, marks runs it finds still running interrupted, and records itself
 * {@code manual}, claiming no slot; it runs also while the job is paused, since an
 * operator asked for it.
 * <p>
 * Every call blocks the calling thread for ZooKeeper's answers (a scheduler's thread, or
 * the caller of {@link #pause(String)}); none runs on a ZooKeeper thread.
 */
public final class CuratorScheduledJobs implements ScheduledJobs {

	private static final Logger logger = LoggerFactory.getLogger(CuratorScheduledJobs.class);

	/**
	 * How many slots a firing counts at most when it reports the slots missed before it.
	 */
	private static final int MISSED_COUNT_LIMIT = 10_000;

	/** How long a firing waits for its locks to see a connection to ZooKeeper. */
	private static final Duration CONNECTION_WAIT = Duration.ofSeconds(5);

	private final Locks locks;

	private final Clock clock;

	private final String node;

	private final JobRecords records;

	private final ConcurrentSkipListMap<String, ScheduledJob> jobs = new ConcurrentSkipListMap<>();

	// What the runs of a job do, for the jobs registered with their body.
	private final ConcurrentHashMap<String, Callable<?>> bodies = new ConcurrentHashMap<>();

	private final List<ScheduledJobListener> listeners = new CopyOnWriteArrayList<>();

	/**
	 * Create the jobs.
	 * @param locks the locks the jobs' runs hold
	 * @param client the client the records are read and written with; its namespace is
	 * the root of the {@code jobs/} records, normally the client of the locks
	 * @param clock the clock of every decision (which slot a firing belongs to, when a
	 * run started and ended)
	 * @param node the name of this instance in the records, such as
	 * {@code shop@host/4711}
	 */
	public CuratorScheduledJobs(Locks locks, CuratorFramework client, Clock clock, String node) {
		this.locks = locks;
		this.records = new JobRecords(client);
		this.clock = clock;
		this.node = node;
	}

	/**
	 * Create the jobs on the client of the given locks.
	 * @param locks the locks
	 * @param clock the clock of every decision
	 * @param node the name of this instance in the records
	 */
	public CuratorScheduledJobs(CuratorLocks locks, Clock clock, String node) {
		this(locks, locks.client(), clock, node);
	}

	/**
	 * Add a listener told what the firings of this instance do.
	 * @param listener the listener
	 */
	public void addListener(ScheduledJobListener listener) {
		this.listeners.add(listener);
	}

	/** The clock of every decision. */
	public Clock clock() {
		return this.clock;
	}

	/** The name of this instance in the records. */
	public String node() {
		return this.node;
	}

	@Override
	public void register(ScheduledJob job) {
		ScheduledJob known = this.jobs.putIfAbsent(job.name(), job);
		if (known != null && known != job) {
			throw new LockConfigurationException("Scheduled job '" + job.name() + "' is registered twice");
		}
		if (known == null) {
			this.records.createIfConnected(job.name(), JobRecord.registered(job.schedule(), this.clock.instant()));
		}
	}

	@Override
	public void register(ScheduledJob job, Callable<?> body) {
		register(job);
		if (this.bodies.putIfAbsent(job.name(), body) != null) {
			throw new LockConfigurationException("Scheduled job '" + job.name() + "' is registered twice");
		}
	}

	@Override
	public List<ScheduledJob> jobs() {
		return List.copyOf(this.jobs.values());
	}

	@Override
	public Optional<JobRun> lastRun(String job) {
		List<JobRun> runs = runs(job);
		return runs.isEmpty() ? Optional.empty() : Optional.of(runs.get(0));
	}

	@Override
	public List<JobRun> runs(String job) {
		return this.records.read(job).record().runs();
	}

	@Override
	public boolean isPaused(String job) {
		return this.records.read(job).record().paused();
	}

	@Override
	public void pause(String job) {
		this.records.update(job, (record) -> record.withPaused(true));
		logger.info("Scheduled job '{}' paused by {}", job, this.node);
	}

	@Override
	public void resume(String job) {
		this.records.update(job, (record) -> record.withPaused(false));
		logger.info("Scheduled job '{}' resumed by {}", job, this.node);
	}

	@Override
	public JobFiring fire(ScheduledJob job, Instant now, Callable<?> body) throws Exception {
		Instant slot = job.schedule().slotAt(now);
		if (slot == null) {
			return skipped(job, null, JobSkip.NO_SLOT);
		}
		return claimAndRun(job, slot, null, body);
	}

	@Override
	public JobFiring catchUp(ScheduledJob job, Instant now, Duration within, Callable<?> body) throws Exception {
		Instant slot = job.schedule().slotAt(now);
		if (slot == null || Duration.between(slot, now).compareTo(within) > 0) {
			return new JobFiring(job.name(), slot, null, JobSkip.NOTHING_MISSED);
		}
		return claimAndRun(job, slot, within, body);
	}

	/**
	 * Claim the slot and run the body.
	 * @param catchUpWithin the window of a catch-up (which runs only after an earlier
	 * claimed slot), {@code null} for a firing
	 */
	private JobFiring claimAndRun(ScheduledJob job, Instant slot, @Nullable Duration catchUpWithin, Callable<?> body)
			throws Exception {
		if (isDraining()) {
			return skipped(job, slot, JobSkip.DRAINING);
		}
		JobSkip skip = check(this.records.read(job.name()).record(), slot, catchUpWithin != null);
		if (skip != null) {
			return skipped(job, slot, skip);
		}
		Optional<LockHandle> lock;
		try {
			lock = this.locks.nonReentrantMutex(job.lockPath()).tryAcquire(Duration.ZERO);
			if (lock.isEmpty() && this.records.lockFree(job.lockPath())) {
				// Free, yet not taken: the locks did not hear of the connection yet.
				lock = this.locks.nonReentrantMutex(job.lockPath()).tryAcquire(CONNECTION_WAIT);
				if (lock.isEmpty() && this.records.lockFree(job.lockPath())) {
					return skipped(job, slot, JobSkip.DISCONNECTED);
				}
			}
		}
		catch (LocksDrainingException ex) {
			// The drain began since the check.
			return skipped(job, slot, JobSkip.DRAINING);
		}
		if (lock.isEmpty()) {
			return skipped(job, slot, JobSkip.LOCKED);
		}
		try (LockHandle handle = lock.get()) {
			JobRun run = claim(job, slot, catchUpWithin != null, handle);
			if (run == null) {
				JobSkip reason = check(this.records.read(job.name()).record(), slot, catchUpWithin != null);
				return skipped(job, slot, (reason != null) ? reason : JobSkip.SLOT_TAKEN);
			}
			Ran ran = run(run, handle, body);
			ran.rethrow();
			return new JobFiring(job.name(), slot, ran.run(), null);
		}
	}

	/**
	 * Run the job now, outside its schedule, under its lock: the run is recorded as a
	 * manual run, which claims no slot, so the next slot of the schedule runs as it would
	 * have. A body that throws an exception ends the run {@link JobOutcome#FAILED}, which
	 * is returned (and logged); an error is thrown on. Refused while the job's lock is
	 * held anywhere (a run is going on, or a firing is claiming a slot), and while this
	 * instance is draining ({@link LocksDrainingException}).
	 */
	@Override
	public JobRun runNow(String name) {
		ScheduledJob job = this.jobs.get(name);
		Callable<?> body = this.bodies.get(name);
		if (job == null || body == null) {
			throw new LockConfigurationException("Scheduled job '" + name + "' cannot be run now: "
					+ ((job == null) ? "this instance has no such job (its jobs: " + this.jobs.keySet() + ")"
							: "this instance knows no body to run for it (registered without one)"));
		}
		Optional<LockHandle> lock = this.locks.nonReentrantMutex(job.lockPath()).tryAcquire(Duration.ZERO);
		if (lock.isEmpty()) {
			throw new IllegalStateException("Scheduled job '" + name + "' cannot be run now: a run of it is going on "
					+ "(its lock '" + job.lockPath() + "' is held), on this instance or another");
		}
		try (LockHandle handle = lock.get()) {
			JobRun run = null;
			while (run == null) {
				JobRecords.Versioned current = this.records.read(name);
				Instant now = this.clock.instant();
				JobRun started = new JobRun(name, now, this.node, now, null, JobOutcome.RUNNING, handle.fencingToken(),
						true);
				JobRecord record = interruptedRunsEnded(current.record(), now).startedManually(started);
				run = this.records.write(name, current.version(), record) ? started : null;
			}
			logger.info("Scheduled job '{}' run now by {}, outside its schedule", name, this.node);
			Ran ran = run(run, handle, body);
			if (ran.thrown() instanceof Error error) {
				throw error;
			}
			if (ran.thrown() != null) {
				logger.warn("The manual run of scheduled job '{}' failed", name, ran.thrown());
			}
			return ran.run();
		}
	}

	/**
	 * Run the body of a run that claimed its slot, or of a manual run; record its end.
	 */
	private Ran run(JobRun run, LockHandle handle, Callable<?> body) {
		for (ScheduledJobListener listener : this.listeners) {
			listener.started(run);
		}
		Throwable thrown = null;
		try {
			JobRunContext.callAs(run, body);
		}
		catch (Exception | Error ex) {
			thrown = ex;
		}
		JobOutcome outcome = !handle.isHeld() ? JobOutcome.INTERRUPTED
				: (thrown != null) ? JobOutcome.FAILED : JobOutcome.SUCCEEDED;
		JobRun ended = run.ended(this.clock.instant(), outcome);
		recordEnd(run.job(), ended);
		for (ScheduledJobListener listener : this.listeners) {
			listener.ended(ended);
		}
		return new Ran(ended, thrown);
	}

	private boolean isDraining() {
		try {
			return this.locks.admin().isDraining();
		}
		catch (UnsupportedOperationException ex) {
			return false;
		}
	}

	/**
	 * Why a firing for the slot would not run on this record, or {@code null} if it
	 * would.
	 */
	private static @Nullable JobSkip check(JobRecord record, Instant slot, boolean catchUp) {
		if (catchUp && record.lastSlot() == null) {
			// A job that never ran has missed nothing: its first run is its first firing.
			return JobSkip.NOTHING_MISSED;
		}
		if (record.lastSlot() != null && !record.lastSlot().isBefore(slot)) {
			return catchUp ? JobSkip.NOTHING_MISSED : JobSkip.SLOT_TAKEN;
		}
		if (record.paused()) {
			return JobSkip.PAUSED;
		}
		return null;
	}

	/**
	 * Claim the slot under the held lock.
	 * @return the run, or {@code null} if the record says the slot may not be claimed
	 */
	private @Nullable JobRun claim(ScheduledJob job, Instant slot, boolean catchUp, LockHandle handle) {
		while (true) {
			JobRecords.Versioned current = this.records.read(job.name());
			JobRecord record = current.record();
			if (check(record, slot, catchUp) != null) {
				return null;
			}
			Instant now = this.clock.instant();
			record = interruptedRunsEnded(record, now);
			long missed = missedSlots(job, record.lastSlot(), slot);
			JobRun run = new JobRun(job.name(), slot, this.node, now, null, JobOutcome.RUNNING, handle.fencingToken());
			if (this.records.write(job.name(), current.version(), record.claimedBy(run, job.schedule()))) {
				if (missed > 0) {
					for (ScheduledJobListener listener : this.listeners) {
						listener.missed(job.name(), missed);
					}
				}
				return run;
			}
		}
	}

	/**
	 * The record with its runs still marked running marked interrupted: their lock is
	 * held by the caller now, so their instance lost it (died, or lost its session)
	 * without recording their end.
	 */
	private static JobRecord interruptedRunsEnded(JobRecord record, Instant now) {
		JobRecord ended = record;
		for (JobRun run : record.runs()) {
			if (run.outcome() == JobOutcome.RUNNING) {
				ended = ended.withRun(run.slot(), run.fencingToken(),
						(found) -> found.ended(now, JobOutcome.INTERRUPTED));
			}
		}
		return ended;
	}

	/** The number of slots strictly between the last claimed slot and the given one. */
	private static long missedSlots(ScheduledJob job, @Nullable Instant lastSlot, Instant slot) {
		if (lastSlot == null) {
			return 0;
		}
		long count = 0;
		Instant next = job.schedule().slotAfter(lastSlot);
		while (next != null && next.isBefore(slot) && count < MISSED_COUNT_LIMIT) {
			count++;
			next = job.schedule().slotAfter(next);
		}
		return count;
	}

	private void recordEnd(String job, JobRun ended) {
		try {
			this.records.update(job, (record) -> record.withRun(ended.slot(), ended.fencingToken(), (run) -> ended));
		}
		catch (RuntimeException ex) {
			// The run stays RUNNING in the record; the next run marks it interrupted.
			logger.warn("The end of the run of scheduled job '" + job + "' for slot " + ended.slot() + " ("
					+ ended.outcome() + ") could not be recorded", ex);
		}
	}

	private JobFiring skipped(ScheduledJob job, @Nullable Instant slot, JobSkip reason) {
		if (reason != JobSkip.NOTHING_MISSED) {
			for (ScheduledJobListener listener : this.listeners) {
				listener.skipped(job.name(), slot, reason);
			}
		}
		return new JobFiring(job.name(), slot, null, reason);
	}

	/** A run ended, and what its body threw, if it threw. */
	private record Ran(JobRun run, @Nullable Throwable thrown) {

		void rethrow() throws Exception {
			if (this.thrown instanceof Error error) {
				throw error;
			}
			if (this.thrown instanceof Exception exception) {
				throw exception;
			}
		}

	}

	@Override
	public String toString() {
		return "CuratorScheduledJobs on " + this.node + " " + new ArrayList<>(this.jobs.keySet());
	}

}
