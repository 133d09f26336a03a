package io.github.distlock.test.jobs;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import io.github.distlock.annotation.MissedRuns;
import io.github.distlock.annotation.ScheduledOnce;
import io.github.distlock.core.JobRun;

/**
 * An application with jobs that run once per slot, for the tests of
 * {@code @ScheduledOnce} across instances. Its {@code @Scheduled} methods fire only when
 * {@code jobs.scheduling=true}; otherwise a test fires them by calling them, with the
 * instance's clock set as it likes.
 */
@SpringBootApplication
public class JobApplication {

	@Bean
	Jobs jobs(Environment environment) {
		return new Jobs(environment.getProperty("spring.application.name", "application"));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	@ConditionalOnBooleanProperty("jobs.scheduling")
	static class Scheduling {

		@Bean
		Ticker ticker(Jobs jobs) {
			return new Ticker(jobs);
		}

	}

	/** Runs of every instance of the test's JVM, by job. */
	static final class RunLog {

		static final List<Ran> runs = new CopyOnWriteArrayList<>();

		/** A gate the runs of {@code report} on the {@link #gated} instance wait at. */
		static volatile CountDownLatch gate = new CountDownLatch(0);

		static volatile String gated = "";

		static void clear() {
			runs.clear();
			gate = new CountDownLatch(0);
			gated = "";
		}

		/** The instances that ran the job, by slot. */
		static Map<Instant, List<String>> bySlot(String job) {
			Map<Instant, List<String>> slots = new TreeMap<>();
			for (Ran ran : runs) {
				if (ran.run().job().equals(job)) {
					slots.computeIfAbsent(ran.run().slot(), (slot) -> new ArrayList<>()).add(ran.instance());
				}
			}
			return slots;
		}

	}

	record Ran(String instance, JobRun run) {
	}

	/** The jobs the tests fire. */
	public static class Jobs {

		private final String instance;

		Jobs(String instance) {
			this.instance = instance;
		}

		@Scheduled(cron = "*/2 * * * * *", zone = "UTC")
		@ScheduledOnce("report")
		public void report() throws InterruptedException {
			RunLog.runs.add(new Ran(this.instance, JobRun.current().orElseThrow()));
			if (this.instance.equals(RunLog.gated) && !RunLog.gate.await(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("the gate stayed closed");
			}
		}

		@Scheduled(cron = "*/2 * * * * *", zone = "UTC")
		@ScheduledOnce(value = "digest", missed = MissedRuns.RUN_ONCE, catchUpWithin = "1m")
		public void digest() {
			RunLog.runs.add(new Ran(this.instance, JobRun.current().orElseThrow()));
		}

	}

	/** A job on the real scheduler and the system clock. */
	public static class Ticker {

		private final Jobs jobs;

		Ticker(Jobs jobs) {
			this.jobs = jobs;
		}

		@Scheduled(fixedRate = 500)
		@ScheduledOnce("tick")
		public void tick() {
			RunLog.runs.add(new Ran(this.jobs.instance, JobRun.current().orElseThrow()));
		}

	}

}
