package io.github.distlock.curator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.JobFiring;
import io.github.distlock.core.JobOutcome;
import io.github.distlock.core.JobRun;
import io.github.distlock.core.JobRunContext;
import io.github.distlock.core.JobSkip;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;
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
 * and a run never overlaps another), and skips if it is taken;</li>
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
 * Every call blocks the calling thread for ZooKeeper's answers (a scheduler's thread, or
 * the caller of {@link #pause(String)}); none runs on a ZooKeeper thread.
 */
public final class CuratorScheduledJobs implements ScheduledJobs {

	private static final Logger logger = LoggerFactory.getLogger(CuratorScheduledJobs.class);

	/**
	 * How many slots a firing counts at most when it reports the slots missed before it.
	 */
	private static final int MISSED_COUNT_LIMIT = 10_000;

	private final Locks locks;

	private final CuratorFramework client;

	private final Clock clock;

	private final String node;

	private final ConcurrentSkipListMap<String, ScheduledJob> jobs = new ConcurrentSkipListMap<>();

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
		this.client = client;
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
		return read(job, recordPath(job)).record().runs();
	}

	@Override
	public boolean isPaused(String job) {
		return read(job, recordPath(job)).record().paused();
	}

	@Override
	public void pause(String job) {
		update(job, recordPath(job), (record) -> record.withPaused(true));
		logger.info("Scheduled job '{}' paused by {}", job, this.node);
	}

	@Override
	public void resume(String job) {
		update(job, recordPath(job), (record) -> record.withPaused(false));
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
		String path = recordPath(job.name());
		JobSkip skip = check(read(job.name(), path).record(), slot, catchUpWithin != null);
		if (skip != null) {
			return skipped(job, slot, skip);
		}
		Optional<LockHandle> lock = this.locks.nonReentrantMutex(job.lockPath()).tryAcquire(Duration.ZERO);
		if (lock.isEmpty()) {
			return skipped(job, slot, JobSkip.LOCKED);
		}
		try (LockHandle handle = lock.get()) {
			JobRun run = claim(job, path, slot, catchUpWithin != null, handle);
			if (run == null) {
				JobSkip reason = check(read(job.name(), path).record(), slot, catchUpWithin != null);
				return skipped(job, slot, (reason != null) ? reason : JobSkip.SLOT_TAKEN);
			}
			for (ScheduledJobListener listener : this.listeners) {
				listener.started(run);
			}
			Exception failure = null;
			Error error = null;
			try {
				JobRunContext.callAs(run, body);
			}
			catch (Exception ex) {
				failure = ex;
			}
			catch (Error ex) {
				error = ex;
			}
			JobOutcome outcome = !handle.isHeld() ? JobOutcome.INTERRUPTED
					: (failure != null || error != null) ? JobOutcome.FAILED : JobOutcome.SUCCEEDED;
			JobRun ended = run.ended(this.clock.instant(), outcome);
			recordEnd(job.name(), path, ended);
			for (ScheduledJobListener listener : this.listeners) {
				listener.ended(ended);
			}
			if (error != null) {
				throw error;
			}
			if (failure != null) {
				throw failure;
			}
			return new JobFiring(job.name(), slot, ended, null);
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
	private @Nullable JobRun claim(ScheduledJob job, String path, Instant slot, boolean catchUp, LockHandle handle) {
		while (true) {
			Versioned current = read(job.name(), path);
			JobRecord record = current.record();
			if (check(record, slot, catchUp) != null) {
				return null;
			}
			Instant now = this.clock.instant();
			record = interruptedRunsEnded(record, now);
			long missed = missedSlots(job, record.lastSlot(), slot);
			JobRun run = new JobRun(job.name(), slot, this.node, now, null, JobOutcome.RUNNING, handle.fencingToken());
			if (write(job.name(), path, current.version(), record.claimedBy(run))) {
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

	private void recordEnd(String job, String path, JobRun ended) {
		try {
			update(job, path, (record) -> record.withRun(ended.slot(), ended.fencingToken(), (run) -> ended));
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

	private void update(String job, String path, UnaryOperator<JobRecord> change) {
		while (true) {
			Versioned current = read(job, path);
			if (write(job, path, current.version(), change.apply(current.record()))) {
				return;
			}
		}
	}

	private Versioned read(String job, String path) {
		Stat stat = new Stat();
		byte[] data;
		try {
			data = this.client.getData().storingStatIn(stat).forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return new Versioned(JobRecord.EMPTY, -1);
		}
		catch (Exception ex) {
			throw failure("Reading the record of scheduled job '" + job + "' failed", ex);
		}
		try {
			return new Versioned(JobRecord.parse(job, data), stat.getVersion());
		}
		catch (RuntimeException ex) {
			throw new LockAcquisitionException(
					"The node " + path + " is not the record of scheduled job '" + job + "' (" + ex.getMessage() + ")",
					ex);
		}
	}

	/**
	 * Write the record if its node still has the version read.
	 * @param version the version read, {@code -1} if there was no node
	 * @return whether it was written; {@code false} if another write came first
	 */
	private boolean write(String job, String path, int version, JobRecord record) {
		try {
			if (version < 0) {
				this.client.create()
					.creatingParentContainersIfNeeded()
					.withMode(CreateMode.PERSISTENT)
					.forPath(path, record.toBytes());
			}
			else {
				this.client.setData().withVersion(version).forPath(path, record.toBytes());
			}
			return true;
		}
		catch (KeeperException.BadVersionException | KeeperException.NodeExistsException
				| KeeperException.NoNodeException ex) {
			return false;
		}
		catch (Exception ex) {
			throw failure("Writing the record of scheduled job '" + job + "' failed", ex);
		}
	}

	private static LockAcquisitionException failure(String message, Exception ex) {
		if (ex instanceof InterruptedException) {
			Thread.currentThread().interrupt();
		}
		return new LockAcquisitionException(message + ": " + ex, ex);
	}

	private static String recordPath(String job) {
		return "/" + LockPath.of("jobs", job).value();
	}

	private record Versioned(JobRecord record, int version) {
	}

	@Override
	public String toString() {
		return "CuratorScheduledJobs on " + this.node + " " + new ArrayList<>(this.jobs.keySet());
	}

}
