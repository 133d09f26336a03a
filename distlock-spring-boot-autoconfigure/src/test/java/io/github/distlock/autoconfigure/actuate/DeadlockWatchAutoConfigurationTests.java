package io.github.distlock.autoconfigure.actuate;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.distlock.actuate.DeadlockWatch;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The deadlock watch, auto-configured: two instances deadlocked on two locks taken in
 * opposite orders make the {@code distlock.deadlocks} gauge 1, and one WARN line naming
 * both paths once two checks in a row saw the cycle; the gauge goes back to 0 when the
 * cycle is broken.
 */
@ExtendWith(OutputCaptureExtension.class)
class DeadlockWatchAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final ApplicationContextRunner contextRunner = DistlockContextRunners
		.applicationContextRunner(zookeeper, DistlockAutoConfiguration.class, MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				DistlockMetricsAutoConfiguration.class)
		.withPropertyValues("distlock.zookeeper.namespace=" + zookeeper.options().namespace());

	@Test
	void aPersistingCycleIsCountedByTheGaugeAndLoggedOnceNamingItsPaths(CapturedOutput output) throws Exception {
		this.contextRunner.run((context) -> {
			DeadlockWatch watch = context.getBean(DeadlockWatch.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			assertThat(watch.check()).isEmpty();
			assertThat(registry.get("distlock.deadlocks").gauge().value()).isZero();
			CuratorLocks first = zookeeper.newNode();
			CuratorLocks second = zookeeper.newNode();
			ExecutorService threads = Executors.newFixedThreadPool(2);
			CountDownLatch bothHold = new CountDownLatch(2);
			try {
				Future<?> one = threads.submit(() -> takeBoth(first, "ledger/a", "ledger/b", bothHold));
				Future<?> two = threads.submit(() -> takeBoth(second, "ledger/b", "ledger/a", bothHold));
				await().atMost(Duration.ofSeconds(20)).until(() -> !watch.check().isEmpty());
				assertThat(registry.get("distlock.deadlocks").gauge().value()).isEqualTo(1);
				assertThat(output).doesNotContain("Deadlock between lock holders");
				assertThat(watch.check()).hasSize(1);
				assertThat(watch.check()).hasSize(1);
				assertThat(output.toString().split("Deadlock between lock holders", -1)).hasSize(2);
				assertThat(output).contains("'ledger/a'").contains("'ledger/b'");
				first.close();
				assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> one.get(20, TimeUnit.SECONDS))
					.withCauseInstanceOf(LockAcquisitionException.class);
				two.get(20, TimeUnit.SECONDS);
				assertThat(watch.check()).isEmpty();
				assertThat(registry.get("distlock.deadlocks").gauge().value()).isZero();
			}
			finally {
				threads.shutdownNow();
			}
		});
	}

	@Test
	void theWatchRunsOnItsOwnThreadAtTheConfiguredInterval() {
		this.contextRunner.withPropertyValues("distlock.admin.deadlocks.check-interval=5m").run((context) -> {
			DeadlockWatch watch = context.getBean(DeadlockWatch.class);
			assertThat(watch.isRunning()).isTrue();
			context.stop();
			assertThat(watch.isRunning()).isFalse();
		});
	}

	@Test
	void disabledByItsPropertyThereIsNoWatchAndNoGauge() {
		this.contextRunner.withPropertyValues("distlock.admin.deadlocks.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(DeadlockWatch.class);
			assertThat(context.getBean(MeterRegistry.class).find("distlock.deadlocks").gauge()).isNull();
		});
	}

	@Test
	void aNonPositiveIntervalFailsAtStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues("distlock.admin.deadlocks.check-interval=0s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("distlock.admin.deadlocks.check-interval")
				.hasMessageContaining("must be a positive duration"));
	}

	private static Object takeBoth(CuratorLocks locks, String firstPath, String secondPath, CountDownLatch bothHold)
			throws Exception {
		try (LockHandle held = locks.mutex(firstPath).acquire(Duration.ofSeconds(5))) {
			bothHold.countDown();
			bothHold.await(20, TimeUnit.SECONDS);
			try (LockHandle next = locks.mutex(secondPath).acquire(Duration.ofSeconds(60))) {
				return next;
			}
		}
	}

}
