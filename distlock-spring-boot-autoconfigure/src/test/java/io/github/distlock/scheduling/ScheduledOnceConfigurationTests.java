package io.github.distlock.scheduling;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.support.CronExpression;

import io.github.distlock.annotation.ScheduledOnce;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.scheduling.DistlockSchedulingAutoConfiguration;
import io.github.distlock.core.JobRun;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.ScheduledJob;
import io.github.distlock.core.ScheduledJobs;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code @ScheduledOnce} as the auto-configuration sets it up: the slots it derives from
 * the method's {@code @Scheduled}, a firing through the bean's proxy, and the methods
 * refused at startup with a message naming the method, the annotation and the value.
 */
class ScheduledOnceConfigurationTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final ApplicationContextRunner contextRunner = DistlockContextRunners
		.applicationContextRunner(zookeeper, DistlockAutoConfiguration.class, DistlockSchedulingAutoConfiguration.class)
		.withPropertyValues("distlock.zookeeper.namespace=scheduled-once-config");

	@Test
	void aFiringRunsTheMethodOnceForItsSlotAndRecordsTheRun() {
		Instant at = Instant.parse("2030-01-01T10:00:07.300Z");
		this.contextRunner.withBean(Clock.class, () -> Clock.fixed(at, ZoneOffset.UTC))
			.withUserConfiguration(ReportConfiguration.class)
			.run((context) -> {
				Report report = context.getBean(Report.class);
				report.run();
				report.run();
				assertThat(report.runs()).hasSize(1);
				JobRun run = report.runs().get(0);
				assertThat(run.slot()).isEqualTo(Instant.parse("2030-01-01T10:00:05Z"));
				assertThat(run.job()).isEqualTo("report-config");
				ScheduledJobs jobs = context.getBean(ScheduledJobs.class);
				assertThat(jobs.lastRun("report-config")).get()
					.satisfies((last) -> assertThat(last.fencingToken()).isEqualTo(run.fencingToken()));
				assertThat(jobs.jobs()).extracting(ScheduledJob::name).containsExactly("report-config");
				assertThat(jobs.jobs().get(0).schedule().description()).isEqualTo("cron */5 * * * * * (UTC)");
			});
	}

	@Test
	void fixedDelayIsRefusedAtStartup() {
		assertRefused(FixedDelay.class,
				"FixedDelay.Job.run(): @ScheduledOnce(\"delayed\") is refused on " + "@Scheduled(fixedDelay = 5000)");
	}

	@Test
	void aMethodWithoutScheduledIsRefusedAtStartup() {
		assertRefused(Unscheduled.class, "Unscheduled.run(): @ScheduledOnce(\"unscheduled\") needs @Scheduled");
	}

	@Test
	void aNameUsedTwiceIsRefusedAtStartup() {
		assertRefused(Twice.class,
				"@ScheduledOnce(\"twice\"): job 'twice' is also the job of ScheduledOnceConfigurationTests.Twice.first()");
	}

	@Test
	void aBadCatchUpWindowIsRefusedAtStartup() {
		assertRefused(BadWindow.class,
				"BadWindow.run(): @ScheduledOnce(\"window\"): catchUpWithin \"soon\" is not " + "a duration");
	}

	@Test
	void cronSlotsAreTheLatestPlannedTimeNotAfterTheClock() {
		CronSchedule schedule = new CronSchedule(CronExpression.parse("0 0 2 * * *"), ZoneId.of("Europe/Paris"));
		assertThat(schedule.slotAt(Instant.parse("2030-03-10T12:00:00Z")))
			.isEqualTo(Instant.parse("2030-03-10T01:00:00Z"));
		assertThat(schedule.slotAt(Instant.parse("2030-03-10T01:00:00Z")))
			.isEqualTo(Instant.parse("2030-03-10T01:00:00Z"));
		assertThat(schedule.slotAt(Instant.parse("2030-03-10T00:59:59.999Z")))
			.isEqualTo(Instant.parse("2030-03-09T01:00:00Z"));
		assertThat(schedule.slotAfter(Instant.parse("2030-03-09T01:00:00Z")))
			.isEqualTo(Instant.parse("2030-03-10T01:00:00Z"));
		CronSchedule leapDay = new CronSchedule(CronExpression.parse("0 0 0 29 2 *"), ZoneOffset.UTC);
		assertThat(leapDay.slotAt(Instant.parse("2031-06-01T00:00:00Z")))
			.isEqualTo(Instant.parse("2028-02-29T00:00:00Z"));
	}

	@Test
	void fixedRateSlotsAreAlignedToTheEpoch() {
		RateSchedule schedule = new RateSchedule(java.time.Duration.ofSeconds(30));
		assertThat(schedule.slotAt(Instant.parse("2030-01-01T10:00:59.999Z")))
			.isEqualTo(Instant.parse("2030-01-01T10:00:30Z"));
		assertThat(schedule.slotAfter(Instant.parse("2030-01-01T10:00:30Z")))
			.isEqualTo(Instant.parse("2030-01-01T10:01:00Z"));
	}

	private void assertRefused(Class<?> configuration, String message) {
		this.contextRunner.withUserConfiguration(configuration).run((context) -> {
			assertThat(context).hasFailed();
			Throwable cause = context.getStartupFailure();
			while (cause != null && !(cause instanceof LockConfigurationException)) {
				cause = cause.getCause();
			}
			assertThat(cause).isNotNull();
			assertThat(cause.getMessage()).contains(message);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class ReportConfiguration {

		@Bean
		Report report() {
			return new Report();
		}

	}

	static class Report {

		private final List<JobRun> runs = new CopyOnWriteArrayList<>();

		List<JobRun> runs() {
			return this.runs;
		}

		@Scheduled(cron = "*/5 * * * * *", zone = "UTC")
		@ScheduledOnce("report-config")
		public void run() {
			this.runs.add(JobRun.current().orElseThrow());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FixedDelay {

		@Bean
		FixedDelay.Job job() {
			return new FixedDelay.Job();
		}

		static class Job {

			@Scheduled(fixedDelay = 5000)
			@ScheduledOnce("delayed")
			public void run() {
			}

		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Unscheduled {

		@ScheduledOnce("unscheduled")
		public void run() {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class Twice {

		private final AtomicInteger calls = new AtomicInteger();

		@Scheduled(fixedRate = 1000)
		@ScheduledOnce("twice")
		public void first() {
			this.calls.incrementAndGet();
		}

		@Scheduled(fixedRate = 2000)
		@ScheduledOnce("twice")
		public void second() {
			this.calls.incrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BadWindow {

		@Scheduled(fixedRate = 1000)
		@ScheduledOnce(value = "window", catchUpWithin = "soon")
		public void run() {
		}

	}

}
