package io.github.distlock.interceptor;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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
 * {@code holdAtLeast = "2s"} the late node, trying while the early node's run is less
 * than 2 s old, is skipped; without it, the late node finds the lock free again and runs
 * the same period a second time.
 * <p>
 * Periods are counted by firings, not by the clock. A period decides only what it can:
 * with {@code holdAtLeast}, one whose late try ended within 2 s of the early node's
 * firing (so before the hold could end); without it, one whose late try ended before the
 * early node fired again (so nobody else could hold). A loaded machine that fires late
 * makes a period undecided, and the test waits for more periods, never for luck.
 */
class ScheduledJobHoldAtLeastTests {

	private static final long PERIOD_MILLIS = 2500;

	private static final long HOLD_MILLIS = 2000;

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
		await().atMost(Duration.ofMillis(4000 + PERIOD_MILLIS * PERIODS * 4))
			.until(() -> log.decided("jobs/hold-2s", true).size() >= PERIODS
					&& log.decided("jobs/hold-0", false).size() >= PERIODS);
		List<Period> held = log.decided("jobs/hold-2s", true);
		List<Period> released = log.decided("jobs/hold-0", false);
		System.out
			.println("[measure] decided periods: holdAtLeast 2s " + held + " of " + log.periods("jobs/hold-2s").size()
					+ "; without " + released + " of " + log.periods("jobs/hold-0").size());
		assertThat(held).allSatisfy((period) -> assertThat(period.lateRan).as("holdAtLeast 2s: %s", period).isFalse());
		assertThat(released)
			.allSatisfy((period) -> assertThat(period.lateRan).as("no holdAtLeast: %s", period).isTrue());
	}

	/**
	 * One period of one path, as its two firings went: when the early node fired and
	 * whether its job ran; when the late node's try ended and whether its job ran.
	 */
	static final class Period {

		final int index;

		volatile long earlyFired;

		volatile boolean earlyRan;

		volatile boolean earlyEnded;

		volatile long lateEnded;

		volatile boolean lateRan;

		volatile boolean lateDone;

		Period(int index) {
			this.index = index;
		}

		@Override
		public String toString() {
			return this.index + (this.earlyRan ? "" : " (early skipped)") + ": late "
					+ (this.lateRan ? "ran" : "skipped") + " " + (this.lateEnded - this.earlyFired)
					+ " ms after the early firing";
		}

	}

	/** The periods of each path, by firing count. */
	static final class RunLog {

		private final Map<String, Map<Integer, Period>> periods = new ConcurrentHashMap<>();

		private final Map<String, AtomicInteger> earlyFirings = new ConcurrentHashMap<>();

		private final Map<String, AtomicInteger> lateFirings = new ConcurrentHashMap<>();

		Period period(String path, int index) {
			return this.periods.computeIfAbsent(path, (key) -> new ConcurrentHashMap<>())
				.computeIfAbsent(index, Period::new);
		}

		List<Period> periods(String path) {
			return new ArrayList<>(new TreeMap<>(this.periods.getOrDefault(path, Map.of())).values());
		}

		int earlyFired(String path) {
			return this.earlyFirings.computeIfAbsent(path, (key) -> new AtomicInteger()).getAndIncrement();
		}

		int lateFired(String path) {
			return this.lateFirings.computeIfAbsent(path, (key) -> new AtomicInteger()).getAndIncrement();
		}

		/**
		 * The periods whose outcome is decided: with {@code holdAtLeast}, the early node
		 * ran and the late try ended within the hold; without it, the late try ended
		 * before the early node's next firing.
		 */
		List<Period> decided(String path, boolean holds) {
			List<Period> all = periods(path);
			List<Period> decided = new ArrayList<>();
			for (Period period : all) {
				if (!period.lateDone) {
					continue;
				}
				if (holds) {
					if (period.earlyRan && period.lateEnded < period.earlyFired + HOLD_MILLIS) {
						decided.add(period);
					}
				}
				else {
					Period next = this.periods.getOrDefault(path, Map.of()).get(period.index + 1);
					if (period.earlyRan && next != null && next.earlyFired > 0 && period.lateEnded < next.earlyFired) {
						decided.add(period);
					}
				}
			}
			return decided;
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
		ReportJob reportJob(Environment environment) {
			return new ReportJob(environment.getRequiredProperty("job.path"));
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
			RunLog log = this.log.getObject();
			if (!this.late) {
				Period period = log.period(job.path(), log.earlyFired(job.path()));
				period.earlyFired = System.currentTimeMillis();
				job.run();
				period.earlyRan = job.tookRun();
				period.earlyEnded = true;
				return;
			}
			Period period = log.period(job.path(), log.lateFired(job.path()));
			await().atMost(Duration.ofSeconds(30)).until(() -> period.earlyEnded);
			if (!this.holds) {
				LockPath path = LockPath.parse(job.path());
				await().atMost(Duration.ofSeconds(10))
					.until(() -> this.locks.getObject()
						.inspect(path)
						.stream()
						.allMatch((queue) -> queue.participants().isEmpty()));
			}
			job.run();
			period.lateEnded = System.currentTimeMillis();
			period.lateRan = job.tookRun();
			period.lateDone = true;
		}

	}

	/**
	 * The job of one node: its scheduler fires it on one thread, which asks after each
	 * firing whether it ran.
	 */
	static class ReportJob {

		private final String path;

		private volatile boolean ran;

		ReportJob(String path) {
			this.path = path;
		}

		public String path() {
			return this.path;
		}

		@DistributedLock(value = "#{@reportJob.path()}", waitTime = "0", onTimeout = OnTimeout.SKIP,
				holdAtLeast = "${job.hold}")
		public void run() {
			this.ran = true;
			// The job's work: 50 ms.
			LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
		}

		/** Whether the job ran since the last ask. */
		public boolean tookRun() {
			boolean ran = this.ran;
			this.ran = false;
			return ran;
		}

	}

}
