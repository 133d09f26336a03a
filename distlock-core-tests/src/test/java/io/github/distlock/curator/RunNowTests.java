package io.github.distlock.curator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.JobFiring;
import io.github.distlock.core.JobOutcome;
import io.github.distlock.core.JobRun;
import io.github.distlock.core.JobSkip;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LocksDrainingException;
import io.github.distlock.core.ScheduledJob;
import io.github.distlock.core.ScheduledJobListener;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A job run now, outside its schedule: once, under the job's lock, recorded as a manual
 * run that claims no slot, refused while a run of the job goes on anywhere.
 */
class RunNowTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final ScheduledJob job = new ScheduledJob("report", DrainTests.hourly());

	private final Instant slot = Instant.parse("2030-01-01T00:00:00Z");

	@Test
	void runNowRunsTheBodyOnceRecordedManualAndTheNextSlotStillRuns() throws Exception {
		CuratorScheduledJobs jobs = jobs(this.zookeeper.newNode(), "first");
		AtomicInteger runs = new AtomicInteger();
		List<JobRun> told = new CopyOnWriteArrayList<>();
		jobs.addListener(new ScheduledJobListener() {

			@Override
			public void ended(JobRun run) {
				told.add(run);
			}

		});
		jobs.register(this.job, () -> {
			assertThat(JobRun.current()).hasValueSatisfying((run) -> assertThat(run.manual()).isTrue());
			return runs.incrementAndGet();
		});
		assertThat(jobs.fire(this.job, this.slot, runs::incrementAndGet).ran()).isTrue();
		JobRun manual = jobs.runNow("report");
		assertThat(runs).hasValue(2);
		assertThat(manual.manual()).isTrue();
		assertThat(manual.outcome()).isEqualTo(JobOutcome.SUCCEEDED);
		assertThat(manual.node()).isEqualTo("first");
		JobRun recorded = jobs.lastRun("report").orElseThrow();
		assertThat(recorded).isEqualTo(manual);
		assertThat(jobs.runs("report")).extracting(JobRun::manual).containsExactly(true, false);
		assertThat(told).extracting(JobRun::manual).containsExactly(false, true);
		// The slot run before stays claimed; the next one runs.
		assertThat(jobs.fire(this.job, this.slot, runs::incrementAndGet).skipped()).isEqualTo(JobSkip.SLOT_TAKEN);
		JobFiring next = jobs.fire(this.job, this.slot.plus(1, ChronoUnit.HOURS), runs::incrementAndGet);
		assertThat(next.ran()).isTrue();
		assertThat(next.run().manual()).isFalse();
		assertThat(runs).hasValue(3);
	}

	@Test
	void aManualRunBeforeAnyScheduledRunLeavesTheFirstSlotToRun() throws Exception {
		CuratorScheduledJobs jobs = jobs(this.zookeeper.newNode(), "first");
		jobs.register(this.job, () -> null);
		assertThat(jobs.runNow("report").manual()).isTrue();
		assertThat(jobs.fire(this.job, this.slot, () -> null).ran()).isTrue();
	}

	@Test
	void aBodyThatFailsEndsTheManualRunFailed() {
		CuratorScheduledJobs jobs = jobs(this.zookeeper.newNode(), "first");
		jobs.register(this.job, () -> {
			throw new IllegalStateException("broken");
		});
		JobRun run = jobs.runNow("report");
		assertThat(run.outcome()).isEqualTo(JobOutcome.FAILED);
		assertThat(jobs.lastRun("report")).hasValueSatisfying((last) -> {
			assertThat(last.outcome()).isEqualTo(JobOutcome.FAILED);
			assertThat(last.manual()).isTrue();
		});
	}

	@Test
	void runNowIsRefusedWhileAnotherInstancesRunHoldsTheLock() throws Exception {
		CuratorScheduledJobs running = jobs(this.zookeeper.newNode(), "running");
		CuratorScheduledJobs asking = jobs(this.zookeeper.newNode(), "asking");
		AtomicInteger manualRuns = new AtomicInteger();
		running.register(this.job);
		asking.register(this.job, manualRuns::incrementAndGet);
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch finish = new CountDownLatch(1);
		CompletableFuture<JobFiring> firing = CompletableFuture.supplyAsync(() -> {
			try {
				return running.fire(this.job, this.slot, () -> {
					started.countDown();
					return finish.await(30, TimeUnit.SECONDS);
				});
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> asking.runNow("report"))
			.withMessageContaining("Scheduled job 'report' cannot be run now")
			.withMessageContaining("a run of it is going on");
		assertThat(manualRuns).hasValue(0);
		finish.countDown();
		assertThat(firing.get(10, TimeUnit.SECONDS).ran()).isTrue();
		assertThat(asking.runNow("report").manual()).isTrue();
		assertThat(manualRuns).hasValue(1);
	}

	@Test
	void runNowOfAJobWithoutABodyOrUnknownNamesTheJob() {
		CuratorScheduledJobs jobs = jobs(this.zookeeper.newNode(), "first");
		jobs.register(this.job);
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> jobs.runNow("report"))
			.withMessageContaining("Scheduled job 'report' cannot be run now")
			.withMessageContaining("no body");
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> jobs.runNow("unknown"))
			.withMessageContaining("Scheduled job 'unknown' cannot be run now")
			.withMessageContaining("no such job");
	}

	@Test
	void runNowWhileDrainingIsRefused() {
		CuratorLocks locks = this.zookeeper.newNode();
		CuratorScheduledJobs jobs = jobs(locks, "first");
		jobs.register(this.job, () -> null);
		locks.admin().drain(Duration.ZERO);
		assertThatExceptionOfType(LocksDrainingException.class).isThrownBy(() -> jobs.runNow("report"))
			.withMessageContaining("'jobs/report'");
	}

	private static CuratorScheduledJobs jobs(CuratorLocks locks, String node) {
		return new CuratorScheduledJobs(locks, Clock.systemUTC(), node);
	}

}
