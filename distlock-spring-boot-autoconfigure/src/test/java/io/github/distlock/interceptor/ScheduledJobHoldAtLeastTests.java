package io.github.distlock.interceptor;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The scheduled-job pattern: two nodes whose schedules fire 300 ms apart every period run
 * a 50 ms job under {@code @DistributedLock(waitTime = "0", onTimeout = SKIP)}. With
 * {@code holdAtLeast = "2s"} exactly one node runs each period; without it, the late node
 * finds the lock free again and runs the same period a second time.
 */
class ScheduledJobHoldAtLeastTests {

	private static final long PERIOD_MILLIS = 2500;

	private static final int PERIODS = 5;

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	@Test
	void holdAtLeastRunsTheJobOncePerPeriodWhileWithoutItTheLateNodeRunsItAgain() {
		RunLog log = new RunLog();
		// One common start for both variants and both nodes, once the four contexts are
		// up: the early node fires at start + k * period, the late node 300 ms after it.
		long start = System.currentTimeMillis() + 4000;
		for (String hold : List.of("2s", "0")) {
			for (long offset : new long[] { 0, 300 }) {
				contexts.start((context) -> {
					context.registerBean(RunLog.class, () -> log);
					context.getEnvironment()
						.getPropertySources()
						.addFirst(new MapPropertySource("job", Map.of("job.hold", hold, "job.path", "jobs/hold-" + hold,
								"job.first-run", start + offset, "job.late", offset > 0)));
				}, JobConfiguration.class);
			}
		}
		// Done when the late node's job has ended in every period, on both paths.
		await().atMost(Duration.ofMillis(4000 + PERIOD_MILLIS * PERIODS + 10000))
			.until(() -> log.lateJobsEnded("jobs/hold-2s") >= PERIODS && log.lateJobsEnded("jobs/hold-0") >= PERIODS);
		assertThat(log.startedLate(start)).as("a node started after the common start").isFalse();
		Map<Long, List<Long>> held = log.runsByPeriod("jobs/hold-2s", start);
		Map<Long, List<Long>> released = log.runsByPeriod("jobs/hold-0", start);
		System.out
			.println("[measure] runs per period (offsets in ms): holdAtLeast 2s " + held + "; without " + released);
		for (long period = 0; period < PERIODS; period++) {
			assertThat(held.get(period)).as("holdAtLeast 2s, period %d", period).hasSize(1);
			assertThat(released.get(period)).as("no holdAtLeast, period %d", period).hasSize(2);
		}
	}

	/**
	 * When the job ran, by path; and, for the late node to go by events rather than by
	 * the clock, how many runs of the early node have ended, how often the late node
	 * fired and how many of its jobs ended (run or skipped).
	 */
	static final class RunLog {

		private final List<Object[]> runs = new CopyOnWriteArrayList<>();

		private final Map<String, AtomicInteger> earlyRunsEnded = new ConcurrentHashMap<>();

		private final Map<String, AtomicInteger> lateFirings = new ConcurrentHashMap<>();

		private final Map<String, AtomicInteger> lateJobsEnded = new ConcurrentHashMap<>();

		void earlyRunEnded(String path) {
			this.earlyRunsEnded.computeIfAbsent(path, (key) -> new AtomicInteger()).incrementAndGet();
		}

		int earlyRunsEnded(String path) {
			AtomicInteger count = this.earlyRunsEnded.get(path);
			return (count != null) ? count.get() : 0;
		}

		/** Count a firing of the late node; returns how many came before it. */
		int lateFired(String path) {
			return this.lateFirings.computeIfAbsent(path, (key) -> new AtomicInteger()).getAndIncrement();
		}

		void lateJobEnded(String path) {
			this.lateJobsEnded.computeIfAbsent(path, (key) -> new AtomicInteger()).incrementAndGet();
		}

		int lateJobsEnded(String path) {
			AtomicInteger count = this.lateJobsEnded.get(path);
			return (count != null) ? count.get() : 0;
		}

		void ran(String path) {
			this.runs.add(new Object[] { path, System.currentTimeMillis() });
		}

		/** Whether a run came before the common start (its context started too late). */
		boolean startedLate(long start) {
			return this.runs.stream().anyMatch((run) -> (long) run[1] < start - 50);
		}

		/** Offsets of the runs on one path within their period, by period. */
		Map<Long, List<Long>> runsByPeriod(String path, long start) {
			Map<Long, List<Long>> byPeriod = new TreeMap<>();
			for (Object[] run : this.runs) {
				if (path.equals(run[0])) {
					long since = (long) run[1] - start;
					long period = Math.floorDiv(since + 200, PERIOD_MILLIS);
					byPeriod.computeIfAbsent(period, (key) -> new ArrayList<>()).add(since - period * PERIOD_MILLIS);
				}
			}
			return byPeriod;
		}

	}

	/**
	 * Schedules the job at fixed instants (first run, then every period), the same
	 * instants on every node but for the offset of the late one: an absolute schedule, so
	 * that how long a context took to start changes nothing.
	 * <p>
	 * The late node's offset stands for "after the early node's run": when it fires, it
	 * first waits until the early node's run of this period has ended and, without
	 * {@code holdAtLeast}, until that run's lock node is gone from ZooKeeper (the release
	 * is sent, not awaited). So what it finds does not depend on how late a loaded
	 * machine fires the early node's schedule or delivers its release.
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class JobConfiguration implements SchedulingConfigurer {

		private final ObjectProvider<ReportJob> job;

		private final ObjectProvider<RunLog> log;

		private final ObjectProvider<Locks> locks;

		private final long firstRun;

		private final boolean late;

		private final boolean holds;

		JobConfiguration(ObjectProvider<ReportJob> job, ObjectProvider<RunLog> log, ObjectProvider<Locks> locks,
				Environment environment) {
			this.job = job;
			this.log = log;
			this.locks = locks;
			this.firstRun = environment.getRequiredProperty("job.first-run", Long.class);
			this.late = environment.getRequiredProperty("job.late", Boolean.class);
			this.holds = !"0".equals(environment.getRequiredProperty("job.hold"));
		}

		@Bean
		ReportJob reportJob(RunLog log, Environment environment) {
			return new ReportJob(log, environment.getRequiredProperty("job.path"),
					!environment.getRequiredProperty("job.late", Boolean.class));
		}

		@Override
		public void configureTasks(ScheduledTaskRegistrar registrar) {
			registrar.addTriggerTask(this::fire, (context) -> {
				Instant last = context.lastScheduledExecution();
				return (last != null) ? last.plusMillis(PERIOD_MILLIS) : Instant.ofEpochMilli(this.firstRun);
			});
		}

		private void fire() {
			ReportJob job = this.job.getObject();
			if (!this.late) {
				job.run();
				return;
			}
			RunLog log = this.log.getObject();
			int period = log.lateFired(job.path());
			await().atMost(Duration.ofSeconds(10)).until(() -> log.earlyRunsEnded(job.path()) > period);
			if (!this.holds) {
				LockPath path = LockPath.parse(job.path());
				await().atMost(Duration.ofSeconds(10))
					.until(() -> this.locks.getObject()
						.inspect(path)
						.stream()
						.allMatch((queue) -> queue.participants().isEmpty()));
			}
			job.run();
			log.lateJobEnded(job.path());
		}

	}

	static class ReportJob {

		private final RunLog log;

		private final String path;

		private final boolean early;

		ReportJob(RunLog log, String path, boolean early) {
			this.log = log;
			this.path = path;
			this.early = early;
		}

		public String path() {
			return this.path;
		}

		@DistributedLock(value = "#{@reportJob.path()}", waitTime = "0", onTimeout = OnTimeout.SKIP,
				holdAtLeast = "${job.hold}")
		public void run() {
			this.log.ran(this.path);
			// The job's work: 50 ms.
			LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
			if (this.early) {
				this.log.earlyRunEnded(this.path);
			}
		}

	}

}
