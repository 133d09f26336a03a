package io.github.distlock.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.JobRun;
import io.github.distlock.core.JobSkip;
import io.github.distlock.core.ScheduledJob;
import io.github.distlock.core.ScheduledJobListener;
import io.github.distlock.core.ScheduledJobs;

/**
 * Micrometer metrics of the jobs that run once per slot, tagged by job {@code name}:
 * <ul>
 * <li>{@value #RUNS} timer: runs of this instance, from claim to end, tags
 * {@code outcome} ({@code succeeded}, {@code failed}, {@code interrupted}) and
 * {@code trigger} ({@code schedule} for the run of a slot, {@code manual} for a run asked
 * for outside the schedule);</li>
 * <li>{@value #SKIPPED} counter: firings of this instance that did not run the job, tag
 * {@code reason} ({@code slot_taken}, {@code paused}, {@code locked}, {@code no_slot},
 * {@code draining}, {@code disconnected});</li>
 * <li>{@value #MISSED} counter: slots no instance ran, counted by the run that found them
 * (slots that passed while the job was paused included);</li>
 * <li>{@value #LAG} timer: how long after its slot a run of this instance started (manual
 * runs have no slot: neither this nor the latest slot counts them);</li>
 * <li>{@value #LAST_SLOT} gauge: the latest slot run, in seconds since the epoch, as this
 * instance knows it (read from ZooKeeper when the gauges are bound, then the slots it
 * runs itself: the maximum over the instances is the cluster's);</li>
 * <li>{@value #PERIOD} gauge: the time between the job's slots now, in seconds.</li>
 * </ul>
 */
public final class JobMetrics implements ScheduledJobListener {

	/** Name of the run timer. */
	public static final String RUNS = "distlock.job.runs";

	/** Name of the counter of skipped firings. */
	public static final String SKIPPED = "distlock.job.skipped";

	/** Name of the counter of missed slots. */
	public static final String MISSED = "distlock.job.missed";

	/** Name of the lag timer. */
	public static final String LAG = "distlock.job.lag";

	/** Name of the gauge of the latest slot run. */
	public static final String LAST_SLOT = "distlock.job.last.slot";

	/** Name of the gauge of the time between slots. */
	public static final String PERIOD = "distlock.job.period";

	/** Tag of the run timer: what started the run. */
	private static final String TRIGGER = "trigger";

	private final MeterRegistry registry;

	private final ScheduledJobs jobs;

	private final Map<String, AtomicLong> lastSlots = new ConcurrentHashMap<>();

	/**
	 * Create the metrics.
	 * @param registry where to register them
	 * @param jobs the jobs, for the gauges
	 */
	public JobMetrics(MeterRegistry registry, ScheduledJobs jobs) {
		this.registry = registry;
		this.jobs = jobs;
	}

	/**
	 * Register the meters of the jobs known now; reads each job's record once. The
	 * counters start at zero, so that {@code rate()} and {@code increase()} see their
	 * first missed slot and first skip of each reason.
	 */
	public void bindJobs() {
		for (ScheduledJob job : this.jobs.jobs()) {
			for (JobSkip reason : JobSkip.values()) {
				skippedCounter(job.name(), reason);
			}
			missedCounter(job.name());
			AtomicLong lastSlot = lastSlot(job.name());
			try {
				this.jobs.runs(job.name())
					.stream()
					.filter((run) -> !run.manual())
					.findFirst()
					.ifPresent((run) -> lastSlot.accumulateAndGet(run.slot().getEpochSecond(), Math::max));
			}
			catch (RuntimeException ex) {
				// ZooKeeper is not reachable yet: the gauge follows this instance's runs.
			}
			Gauge.builder(PERIOD, job, JobMetrics::period)
				.description("Time between the slots of jobs that run once per slot")
				.baseUnit("seconds")
				.tag(LockTags.NAME, job.name())
				.register(this.registry);
		}
	}

	@Override
	public void started(JobRun run) {
		if (run.manual()) {
			return;
		}
		Timer.builder(LAG)
			.description("Time from the slot of a job to the start of its run")
			.tag(LockTags.NAME, run.job())
			.register(this.registry)
			.record(positive(run.lag()));
		lastSlot(run.job()).accumulateAndGet(run.slot().getEpochSecond(), Math::max);
	}

	@Override
	public void ended(JobRun run) {
		Instant endedAt = run.endedAt();
		Duration took = (endedAt != null) ? Duration.between(run.startedAt(), endedAt) : Duration.ZERO;
		Timer.builder(RUNS)
			.description("Runs of jobs that run once per slot, by outcome")
			.tag(LockTags.NAME, run.job())
			.tag(LockTags.OUTCOME, run.outcome().name().toLowerCase(Locale.ROOT))
			.tag(TRIGGER, run.manual() ? "manual" : "schedule")
			.register(this.registry)
			.record(positive(took));
	}

	@Override
	public void skipped(String job, @Nullable Instant slot, JobSkip reason) {
		skippedCounter(job, reason).increment();
	}

	@Override
	public void missed(String job, long count) {
		missedCounter(job).increment(count);
	}

	private Counter skippedCounter(String job, JobSkip reason) {
		return Counter.builder(SKIPPED)
			.description("Firings of jobs that did not run them, by reason")
			.tag(LockTags.NAME, job)
			.tag("reason", reason.name().toLowerCase(Locale.ROOT))
			.register(this.registry);
	}

	private Counter missedCounter(String job) {
		return Counter.builder(MISSED)
			.description("Slots of jobs that no instance ran")
			.tag(LockTags.NAME, job)
			.register(this.registry);
	}

	private AtomicLong lastSlot(String job) {
		return this.lastSlots.computeIfAbsent(job, (name) -> {
			AtomicLong value = new AtomicLong(0);
			Gauge.builder(LAST_SLOT, value, AtomicLong::get)
				.description("Latest slot run of jobs that run once per slot, as this instance knows it")
				.baseUnit("seconds")
				.tag(LockTags.NAME, name)
				.register(this.registry);
			return value;
		});
	}

	private static double period(ScheduledJob job) {
		Instant slot = job.schedule().slotAt(Instant.now());
		Instant next = (slot != null) ? job.schedule().slotAfter(slot) : null;
		return (slot != null && next != null) ? Duration.between(slot, next).toMillis() / 1000.0 : Double.NaN;
	}

	private static Duration positive(Duration duration) {
		return duration.isNegative() ? Duration.ZERO : duration;
	}

}
