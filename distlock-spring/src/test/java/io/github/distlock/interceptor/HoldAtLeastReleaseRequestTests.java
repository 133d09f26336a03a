package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A lock kept after its method by {@code holdAtLeast} is released at once when an
 * operator asks its holder to release ({@code LockAdmin#requestRelease}), and a locked
 * method hears the request through {@link LockContext}.
 */
class HoldAtLeastReleaseRequestTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	@Test
	void aLockKeptByHoldAtLeastIsReleasedWhenAnOperatorAsks() {
		Reports first = contexts.start(ReportsConfiguration.class).getBean(Reports.class);
		Locks other = contexts.start(ReportsConfiguration.class).getBean(Locks.class);
		assertThat(first.run()).isTrue();
		assertThat(other.mutex("reports/daily").tryAcquire(Duration.ZERO)).isEmpty();
		assertThat(other.admin().requestRelease(LockPath.parse("reports/daily"), LockProtocol.MUTEX)).hasSize(1);
		other.mutex("reports/daily").acquire(Duration.ofSeconds(20)).close();
	}

	@Test
	void aLockedMethodHearsTheRequestThroughItsLockContext() throws Exception {
		Reports first = contexts.start(ReportsConfiguration.class).getBean(Reports.class);
		Locks other = contexts.start(ReportsConfiguration.class).getBean(Locks.class);
		CountDownLatch inside = new CountDownLatch(1);
		Thread running = new Thread(() -> first.runUntilAsked(inside));
		running.start();
		assertThat(inside.await(20, TimeUnit.SECONDS)).isTrue();
		other.admin().requestRelease(LockPath.parse("reports/weekly"), LockProtocol.MUTEX);
		running.join(20_000);
		assertThat(running.isAlive()).isFalse();
		assertThat(first.askedSeen()).isTrue();
		// Kept for an hour by holdAtLeast, unless asked: it was.
		await().atMost(Duration.ofSeconds(20))
			.until(() -> other.mutex("reports/weekly").tryAcquire(Duration.ZERO).map((handle) -> {
				handle.close();
				return true;
			}).orElse(false));
	}

	@Configuration(proxyBeanMethods = false)
	static class ReportsConfiguration {

		@Bean
		Reports reports() {
			return new Reports();
		}

	}

	static class Reports {

		private volatile boolean askedSeen;

		// Read through the proxy: the field is the target's.
		public boolean askedSeen() {
			return this.askedSeen;
		}

		@DistributedLock(value = "reports/daily", waitTime = "0", onTimeout = OnTimeout.SKIP, holdAtLeast = "1h")
		public boolean run() {
			return true;
		}

		@DistributedLock(value = "reports/weekly", holdAtLeast = "1h")
		public void runUntilAsked(CountDownLatch inside) {
			CountDownLatch asked = new CountDownLatch(1);
			LockContext.current().onReleaseRequested(asked::countDown);
			inside.countDown();
			try {
				if (asked.await(20, TimeUnit.SECONDS)) {
					this.askedSeen = LockContext.current().isReleaseRequested();
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
