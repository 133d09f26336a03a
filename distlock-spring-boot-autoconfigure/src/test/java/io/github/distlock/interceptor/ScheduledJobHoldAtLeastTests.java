package io.github.distlock.interceptor;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
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
								"job.first-run", start + offset)));
				}, JobConfiguration.class);
			}
		}
		await().atMost(Duration.ofMillis(4000 + PERIOD_MILLIS * PERIODS + 5000))
			.until(() -> System.currentTimeMillis() > start + PERIOD_MILLIS * (PERIODS - 1) + 1000);
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

	/** When the job ran, by path. */
	static final class RunLog {

		private final List<Object[]> runs = new CopyOnWriteArrayList<>();

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
	 */
	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class JobConfiguration implements SchedulingConfigurer {

		private final ObjectProvider<ReportJob> job;

		private final long firstRun;

		JobConfiguration(ObjectProvider<ReportJob> job, Environment environment) {
			this.job = job;
			this.firstRun = environment.getRequiredProperty("job.first-run", Long.class);
		}

		@Bean
		ReportJob reportJob(RunLog log, Environment environment) {
			return new ReportJob(log, environment.getRequiredProperty("job.path"));
		}

		@Override
		public void configureTasks(ScheduledTaskRegistrar registrar) {
			registrar.addTriggerTask(() -> this.job.getObject().run(), (context) -> {
				Instant last = context.lastScheduledExecution();
				return (last != null) ? last.plusMillis(PERIOD_MILLIS) : Instant.ofEpochMilli(this.firstRun);
			});
		}

	}

	static class ReportJob {

		private final RunLog log;

		private final String path;

		ReportJob(RunLog log, String path) {
			this.log = log;
			this.path = path;
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
		}

	}

}
