package io.github.distlock.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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
import io.github.distlock.core.ScheduledJobs;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.SettableClock;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A job that runs once per slot in operations: the {@code distlock} endpoint lists it
 * with its last run and pauses and resumes it cluster-wide; the {@code distlock.job.*}
 * meters count runs, skipped firings and missed slots, and time the lag.
 */
class ScheduledJobOperationsTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void endpointListsPausesAndResumesTheJobAndMetersCountItsFirings() {
		AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2030-01-01T10:00:00.250Z"));
		Clock clock = new SettableClock(now, Duration.ZERO);
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(JobApplication.class)
			.web(WebApplicationType.NONE)
			.initializers((initialized) -> initialized.getBeanFactory().registerSingleton("clock", clock))
			.run(DistlockContextRunners.arguments(zookeeper, "distlock.zookeeper.namespace=job-operations",
					"management.endpoints.web.exposure.include=distlock"))) {
			Cleanup job = context.getBean(Cleanup.class);
			DistlockEndpoint endpoint = context.getBean(DistlockEndpoint.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			// Registered at zero before any firing, so that rate() sees the first one.
			for (String reason : List.of("slot_taken", "paused", "locked", "no_slot")) {
				assertThat(meters.get(JobMetrics.SKIPPED).tags("name", "cleanup", "reason", reason).counter().count())
					.isZero();
			}
			assertThat(meters.get(JobMetrics.MISSED).tags("name", "cleanup").counter().count()).isZero();
			job.run();
			job.run();
			assertThat(job.runs()).isEqualTo(1);
			DistlockEndpoint.JobDescriptor listed = endpoint.locks().jobs().get(0);
			assertThat(listed.name()).isEqualTo("cleanup");
			assertThat(listed.schedule()).isEqualTo("cron */10 * * * * * (UTC)");
			assertThat(listed.paused()).isFalse();
			assertThat(listed.lastSlot()).isEqualTo(Instant.parse("2030-01-01T10:00:00Z"));
			assertThat(listed.lastRun()).isNotNull();
			assertThat(listed.lastRun().outcome()).isEqualTo("SUCCEEDED");
			assertThat(listed.lastRun().fencingToken()).isPositive();

			assertThat(endpoint.job("cleanup", true).paused()).isTrue();
			assertThat(context.getBean(ScheduledJobs.class).isPaused("cleanup")).isTrue();
			now.set(Instant.parse("2030-01-01T10:00:10Z"));
			job.run();
			assertThat(job.runs()).isEqualTo(1);
			assertThat(endpoint.job("cleanup", false).paused()).isFalse();
			// Two slots later: the paused slot counts as missed.
			now.set(Instant.parse("2030-01-01T10:00:20Z"));
			job.run();
			assertThat(job.runs()).isEqualTo(2);
			assertThat(endpoint.job("no-such-job", true)).isNull();

			assertThat(meters.get(JobMetrics.RUNS).tags("name", "cleanup", "outcome", "succeeded").timer().count())
				.isEqualTo(2);
			assertThat(meters.get(JobMetrics.SKIPPED).tags("name", "cleanup", "reason", "slot_taken").counter().count())
				.isEqualTo(1);
			assertThat(meters.get(JobMetrics.SKIPPED).tags("name", "cleanup", "reason", "paused").counter().count())
				.isEqualTo(1);
			assertThat(meters.get(JobMetrics.MISSED).tags("name", "cleanup").counter().count()).isEqualTo(1);
			assertThat(meters.get(JobMetrics.LAG)
				.tags("name", "cleanup")
				.timer()
				.max(java.util.concurrent.TimeUnit.MILLISECONDS)).isEqualTo(250);
			assertThat(meters.get(JobMetrics.LAST_SLOT).tags("name", "cleanup").gauge().value())
				.isEqualTo(Instant.parse("2030-01-01T10:00:20Z").getEpochSecond());
			assertThat(meters.get(JobMetrics.PERIOD).tags("name", "cleanup").gauge().value()).isEqualTo(10);
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class JobApplication {

		@Bean
		Cleanup cleanup() {
			return new Cleanup();
		}

	}

	static class Cleanup {

		private final AtomicInteger runs = new AtomicInteger();

		@Scheduled(cron = "*/10 * * * * *", zone = "UTC")
		@ScheduledOnce("cleanup")
		public void run() {
			this.runs.incrementAndGet();
		}

		int runs() {
			return this.runs.get();
		}

	}

}
