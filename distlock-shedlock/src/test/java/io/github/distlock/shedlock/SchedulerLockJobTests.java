package io.github.distlock.shedlock;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.LockingTaskExecutorListener;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.LockHandle;
import io.github.distlock.shedlock.autoconfigure.DistlockShedLockAutoConfiguration;
import io.github.distlock.testsupport.ConcurrencyProbe;
import io.github.distlock.test.DistlockNode;
import io.github.distlock.test.DistlockZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A ShedLock application as its users write it ({@code @EnableSchedulerLock},
 * {@code @SchedulerLock} on a real {@code @Scheduled} method), with distlock's
 * auto-configured provider: instances run the job one at a time, also beside an instance
 * that has moved to {@code @DistributedLock("shedlock/report:daily")}, and a distlock
 * holder of that path keeps the job from running anywhere. Each application context is an
 * instance with a session of its own on one real ZooKeeper server.
 */
class SchedulerLockJobTests {

	private static final Duration DEADLINE = Duration.ofSeconds(20);

	@RegisterExtension
	static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension().shared();

	private final ConcurrencyProbe probe = new ConcurrencyProbe("report");

	// Boot's task scheduler, as applications have it: it stops its tasks before
	// distlock's locks close with the context.
	private final ApplicationContextRunner distlock = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskSchedulingAutoConfiguration.class, DistlockAutoConfiguration.class,
				DistlockShedLockAutoConfiguration.class))
		.withPropertyValues("distlock.zookeeper.connect-string=" + zookeeper.get().getConnectString(),
				"distlock.zookeeper.session-timeout=3s", "distlock.zookeeper.connection-timeout=3s")
		.withBean(ConcurrencyProbe.class, () -> this.probe);

	private final ApplicationContextRunner shedLockInstance = this.distlock
		.withUserConfiguration(ShedLockJobConfiguration.class);

	private final ApplicationContextRunner distlockInstance = this.distlock
		.withUserConfiguration(DistlockJobConfiguration.class);

	@Test
	void instancesRunTheJobOneAtATimeAlsoBesideAnInstanceOnDistlocksAnnotation() {
		this.shedLockInstance
			.run((first) -> this.shedLockInstance.run((second) -> this.distlockInstance.run((moved) -> {
				assertThat(first.getBean(LockProvider.class)).isInstanceOf(DistlockLockProvider.class);
				ShedLockJob firstJob = first.getBean(ShedLockJob.class);
				ShedLockJob secondJob = second.getBean(ShedLockJob.class);
				DistlockJob movedJob = moved.getBean(DistlockJob.class);
				await().atMost(DEADLINE)
					.until(() -> firstJob.runs() >= 3 && secondJob.runs() >= 3 && movedJob.runs() >= 3);
				this.probe.assertNeverConcurrent();
			})));
	}

	@Test
	void distlockHolderOfTheShedlockPathKeepsTheJobFromRunning() {
		this.shedLockInstance.run((context) -> {
			ShedLockJob job = context.getBean(ShedLockJob.class);
			Attempts attempts = context.getBean(Attempts.class);
			await().atMost(DEADLINE).until(() -> job.runs() >= 1);
			DistlockNode holder = zookeeper.get().newNode();
			try (LockHandle held = holder.getLocks().mutex("shedlock/report:daily").acquire(DEADLINE)) {
				int runs = job.runs();
				int skipped = attempts.notAcquired.get();
				await().atMost(DEADLINE).until(() -> attempts.notAcquired.get() >= skipped + 5);
				assertThat(job.runs()).as("runs while a distlock holder holds shedlock/report:daily").isEqualTo(runs);
			}
			int runs = job.runs();
			await().atMost(DEADLINE).until(() -> job.runs() > runs);
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	@EnableSchedulerLock(defaultLockAtMostFor = "PT1M")
	static class ShedLockJobConfiguration {

		@Bean
		ShedLockJob shedLockJob(ConcurrencyProbe probe) {
			return new ShedLockJob(probe);
		}

		@Bean
		Attempts attempts() {
			return new Attempts();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class DistlockJobConfiguration {

		@Bean
		DistlockJob distlockJob(ConcurrencyProbe probe) {
			return new DistlockJob(probe);
		}

	}

	/** The job as a ShedLock application has it. */
	static class ShedLockJob {

		private final ConcurrencyProbe probe;

		private final AtomicInteger runs = new AtomicInteger();

		ShedLockJob(ConcurrencyProbe probe) {
			this.probe = probe;
		}

		// A method, not the field: the bean is a proxy.
		public int runs() {
			return this.runs.get();
		}

		@Scheduled(fixedDelay = 20)
		@SchedulerLock(name = "report:daily")
		public void report() {
			LockAssert.assertLocked();
			this.probe.run(SchedulerLockJobTests::work);
			this.runs.incrementAndGet();
		}

	}

	/** The same job on an instance that moved to distlock's annotation. */
	static class DistlockJob {

		private final ConcurrencyProbe probe;

		private final AtomicInteger runs = new AtomicInteger();

		DistlockJob(ConcurrencyProbe probe) {
			this.probe = probe;
		}

		// A method, not the field: the bean is a proxy.
		public int runs() {
			return this.runs.get();
		}

		@Scheduled(fixedDelay = 20)
		@DistributedLock(value = "shedlock/report:daily", waitTime = "0", onTimeout = OnTimeout.SKIP)
		public void report() {
			this.probe.run(SchedulerLockJobTests::work);
			this.runs.incrementAndGet();
		}

	}

	/** ShedLock's word on each firing that found the lock taken. */
	static class Attempts implements LockingTaskExecutorListener {

		final AtomicInteger notAcquired = new AtomicInteger();

		@Override
		public void onLockNotAcquired(LockConfiguration lockConfiguration) {
			this.notAcquired.incrementAndGet();
		}

	}

	/** A run's work: long enough for another instance's firing to fall within it. */
	private static void work() {
		try {
			Thread.sleep(10);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
