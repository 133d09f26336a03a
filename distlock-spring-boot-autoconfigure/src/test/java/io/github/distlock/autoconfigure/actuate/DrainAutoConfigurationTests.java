package io.github.distlock.autoconfigure.actuate;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.SmartLifecycle;

import io.github.distlock.actuate.DistlockHealthIndicator;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LocksDrainingException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Draining in the application: the health component is {@code OUT_OF_SERVICE} while the
 * locks drain, and closing the context drains them before they close, waiting for the
 * locks still held up to {@code distlock.shutdown.drain-timeout}.
 */
class DrainAutoConfigurationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final ApplicationContextRunner contextRunner = DistlockContextRunners.applicationContextRunner(zookeeper,
			DistlockAutoConfiguration.class, DistlockHealthContributorAutoConfiguration.class);

	@Test
	void healthIsOutOfServiceWhileDrainingWithSinceWhenAndTheLocksHeld() {
		this.contextRunner.run((context) -> {
			CuratorLocks locks = context.getBean(CuratorLocks.class);
			DistlockHealthIndicator indicator = context.getBean(DistlockHealthIndicator.class);
			// UP once the client is connected (a loaded machine takes a while).
			await().atMost(WAIT).until(() -> indicator.health(true).getStatus().equals(Status.UP));
			try (LockHandle held = locks.mutex("drained/held").acquire(WAIT)) {
				assertThat(locks.admin().drain(Duration.ZERO)).isFalse();
				Health health = indicator.health(true);
				assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
				assertThat(health.getDetails()).containsEntry("draining",
						Map.of("since", locks.admin().drainingSince().orElseThrow().toString(), "locksHeld", 1));
			}
			locks.admin().undrain();
			assertThat(indicator.health(true).getStatus()).isEqualTo(Status.UP);
		});
	}

	@Test
	void closingTheContextDrainsBeforeTheLocksCloseAndWaitsForTheLocksHeld() throws Exception {
		AtomicReference<CompletableFuture<Throwable>> refusedWhileClosing = new AtomicReference<>();
		long start = System.nanoTime();
		this.contextRunner.withPropertyValues("distlock.shutdown.drain-timeout=30s").run((context) -> {
			CuratorLocks locks = context.getBean(CuratorLocks.class);
			LockHandle held = locks.mutex("drained/on-close").acquireAsync(WAIT).get(10, TimeUnit.SECONDS);
			// Once the context closes: a new lock is refused, the held one is still held
			// (the locks are not closed yet), and releasing it lets the close go on.
			refusedWhileClosing.set(CompletableFuture.supplyAsync(() -> {
				await().atMost(WAIT).until(() -> locks.admin().isDraining());
				Throwable refused = null;
				try {
					locks.mutex("drained/new").acquire(WAIT).close();
				}
				catch (LocksDrainingException ex) {
					refused = ex;
				}
				assertThat(held.isHeld()).isTrue();
				held.close();
				return refused;
			}));
		});
		assertThat(refusedWhileClosing.get().get(10, TimeUnit.SECONDS)).isInstanceOf(LocksDrainingException.class)
			.hasMessageContaining("'drained/new'");
		// The close waited for the release, not for the drain timeout.
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(25));
	}

	@Test
	void theDrainStopsJustAfterTheWebServersGracefulShutdownAndAfterTheLeaderElectionsAreLeft() {
		this.contextRunner.run((context) -> {
			int phase = context.getBean("distlockShutdownDrain", SmartLifecycle.class).getPhase();
			// Lifecycles stop from the highest phase down.
			assertThat(phase).isEqualTo(WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE - 1)
				.isLessThan(SmartLifecycle.DEFAULT_PHASE);
		});
	}

	@Test
	void aNegativeDrainTimeoutFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("distlock.shutdown.drain-timeout=-1s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("distlock.shutdown.drain-timeout"));
	}

}
