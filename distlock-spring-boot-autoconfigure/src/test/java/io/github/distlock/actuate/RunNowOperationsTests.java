package io.github.distlock.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.Scheduled;

import io.github.distlock.annotation.ScheduledOnce;
import io.github.distlock.core.JobOutcome;
import io.github.distlock.core.JobRun;
import io.github.distlock.core.Locks;
import io.github.distlock.core.ScheduledJobs;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.SettableClock;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @ScheduledOnce} method run now, outside its schedule: the method is called
 * once through its proxy as a manual run, recorded so, counted with
 * {@code trigger=manual}, and the slot of the schedule still runs afterwards.
 */
class RunNowOperationsTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void runNowCallsTheMethodOnceAsAManualRunAndTheSlotStillRuns() {
		AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2030-06-01T10:00:00Z"));
		Clock clock = new SettableClock(now, Duration.ZERO);
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(JobApplication.class)
			.web(WebApplicationType.NONE)
			.initializers((initialized) -> initialized.getBeanFactory().registerSingleton("clock", clock))
			.run(DistlockContextRunners.arguments(zookeeper, "distlock.zookeeper.namespace=run-now",
					"management.endpoints.web.exposure.include=distlock"))) {
			Yearly job = context.getBean(Yearly.class);
			ScheduledJobs jobs = context.getBean(ScheduledJobs.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			JobRun manual = jobs.runNow("yearly");
			assertThat(manual.manual()).isTrue();
			assertThat(manual.outcome()).isEqualTo(JobOutcome.SUCCEEDED);
			assertThat(job.runs()).hasSize(1);
			assertThat(job.runs().get(0).manual()).isTrue();
			assertThat(jobs.lastRun("yearly")).hasValue(manual);
			assertThat(meters.get(JobMetrics.RUNS).tags("name", "yearly", "trigger", "manual").timer().count())
				.isEqualTo(1);
			assertThat(meters.find(JobMetrics.LAG).tags("name", "yearly").timer()).isNull();
			DistlockEndpoint endpoint = context.getBean(DistlockEndpoint.class);
			DistlockEndpoint.JobDescriptor listed = endpoint.locks().jobs().get(0);
			assertThat(listed.lastSlot()).isNull();
			assertThat(listed.lastRun().manual()).isTrue();
			// The call through the proxy fires the slot of the schedule: not claimed yet.
			job.run();
			assertThat(job.runs()).hasSize(2);
			assertThat(job.runs().get(1).manual()).isFalse();
			assertThat(job.runs().get(1).slot()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
			assertThat(meters.get(JobMetrics.RUNS)
				.tags("name", "yearly", "trigger", "schedule", "outcome", "succeeded")
				.timer()
				.count()).isEqualTo(1);
			listed = endpoint.locks().jobs().get(0);
			assertThat(listed.lastSlot()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
			assertThat(listed.lastRun().manual()).isFalse();
		}
	}

	@Test
	void aFiringWhileTheInstanceDrainsIsSkippedAndCountedDraining() {
		AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2030-06-01T10:00:00Z"));
		Clock clock = new SettableClock(now, Duration.ZERO);
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(JobApplication.class)
			.web(WebApplicationType.NONE)
			.initializers((initialized) -> initialized.getBeanFactory().registerSingleton("clock", clock))
			.run(DistlockContextRunners.arguments(zookeeper, "distlock.zookeeper.namespace=run-while-draining"))) {
			Yearly job = context.getBean(Yearly.class);
			Locks locks = context.getBean(Locks.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			locks.admin().drain(Duration.ZERO);
			job.run();
			assertThat(job.runs()).isEmpty();
			assertThat(meters.get(JobMetrics.SKIPPED).tags("name", "yearly", "reason", "draining").counter().count())
				.isEqualTo(1);
			locks.admin().undrain();
			job.run();
			assertThat(job.runs()).hasSize(1);
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class JobApplication {

		@Bean
		Yearly yearly() {
			return new Yearly();
		}

	}

	static class Yearly {

		private final List<JobRun> runs = new CopyOnWriteArrayList<>();

		// Once a year: Spring's scheduler does not fire it while the test runs.
		@Scheduled(cron = "0 0 0 1 1 *", zone = "UTC")
		@ScheduledOnce("yearly")
		public void run() {
			this.runs.add(JobRun.current().orElseThrow());
		}

		List<JobRun> runs() {
			return this.runs;
		}

	}

}
