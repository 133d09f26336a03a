package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;

import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code @Semaphore} across three nodes: at most N holders, leases returned on failure
 * and on session expiry, permits checked between nodes.
 */
class SemaphoreAnnotationTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	private ExecutorService pool;

	@BeforeEach
	void startPool() {
		this.pool = Executors.newCachedThreadPool();
	}

	@AfterEach
	void stopPool() {
		this.pool.shutdownNow();
	}

	private AnnotationConfigApplicationContext node(Class<?> configuration) throws InterruptedException {
		AnnotationConfigApplicationContext node = contexts.start((context) -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("permits", Map.of("reports.permits", "3"))), configuration);
		assertThat(node.getBean(CuratorFramework.class).blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return node;
	}

	@Test
	void threeNodesTimesFourThreadsNeverExceedThePermitsAndReachThem() throws Exception {
		int permits = 3;
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger maxInside = new AtomicInteger();
		AtomicInteger calls = new AtomicInteger();
		Runnable body = () -> {
			maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
			calls.incrementAndGet();
			try {
				// Stay until the semaphore is full (or briefly, near the end of the run),
				// so that the maximum is reached and a permit too many would show.
				await().atMost(Duration.ofMillis(300)).until(() -> inside.get() >= permits);
			}
			catch (ConditionTimeoutException ex) {
				// fewer callers left than permits
			}
			inside.decrementAndGet();
		};
		List<ReportService> nodes = List.of(node(ReportConfiguration.class).getBean(ReportService.class),
				node(ReportConfiguration.class).getBean(ReportService.class),
				node(ReportConfiguration.class).getBean(ReportService.class));
		List<Future<?>> futures = new ArrayList<>();
		for (ReportService node : nodes) {
			for (int t = 0; t < 4; t++) {
				futures.add(this.pool.submit(() -> {
					for (int i = 0; i < 4; i++) {
						node.build(body);
					}
					return null;
				}));
			}
		}
		for (Future<?> future : futures) {
			future.get(120, TimeUnit.SECONDS);
		}
		assertThat(calls).hasValue(48);
		assertThat(maxInside).hasValue(permits);
	}

	@Test
	void leaseIsReturnedWhenTheMethodThrows() throws Exception {
		AnnotationConfigApplicationContext context = node(ReportConfiguration.class);
		ReportService service = context.getBean(ReportService.class);
		for (int i = 0; i < 3; i++) {
			// With a leaked lease the second call would time out instead.
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(service::failing).withMessage("boom");
		}
		assertThat(context.getBean(Locks.class).semaphore("failing", 1).tryAcquire(Duration.ofSeconds(1)))
			.hasValueSatisfying((handle) -> handle.close());
	}

	@Test
	void leaseIsFreedWhenItsHoldersSessionExpires() throws Exception {
		AnnotationConfigApplicationContext holderNode = node(ReportConfiguration.class);
		ReportService holder = holderNode.getBean(ReportService.class);
		ReportService other = node(ReportConfiguration.class).getBean(ReportService.class);
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<?> holding = this.pool.submit(() -> holder.single(() -> {
			entered.countDown();
			try {
				release.await(60, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}));
		assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(other.trySingle()).isFalse();
		Faults.expireSession(holderNode.getBean(CuratorFramework.class));
		AtomicInteger ran = new AtomicInteger();
		// Waits at most 20 s; the lease goes with the expired session.
		other.single(ran::incrementAndGet);
		assertThat(ran).hasValue(1);
		release.countDown();
		try {
			holding.get(30, TimeUnit.SECONDS);
		}
		catch (java.util.concurrent.ExecutionException ex) {
			// The holder lost its lease; how that is reported is not this test's concern.
		}
	}

	@Test
	void nodesDeclaringDifferentPermitsForOnePathGetAClearError() throws Exception {
		ReportService two = node(ReportConfiguration.class).getBean(ReportService.class);
		DeclaredFive five = node(FiveConfiguration.class).getBean(DeclaredFive.class);
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<?> holding = this.pool.submit(() -> two.declared(() -> {
			entered.countDown();
			try {
				release.await(60, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}));
		assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
		try {
			assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(five::run)
				.withMessageStartingWith("@Semaphore(\"declared\") on ")
				.withMessageContaining("DeclaredFive.run()")
				.withMessageContaining("'declared' is declared here with 5 permits, but with 2 by another node");
			assertThat(five.runs()).isZero();
		}
		finally {
			release.countDown();
		}
		holding.get(30, TimeUnit.SECONDS);
	}

	@Test
	void semaphoreOverAPathGivingACollectionIsRefusedAtCallTime() throws Exception {
		ReportService service = node(ReportConfiguration.class).getBean(ReportService.class);
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> service.perKey(List.of("a", "b")))
			.withMessageContaining("ReportService.perKey(Object)")
			.withMessageContaining("resolved to 2 paths [pools/a, pools/b]")
			.withMessageContaining("no multi-lock for @Semaphore");
		assertThat(service.perKeyRuns()).isZero();
		assertThat(service.perKey("a")).isEqualTo("pools/a");
		assertThat(service.perKeyRuns()).isEqualTo(1);
	}

	@Test
	void noPermitLeftGivesTheTimeoutPolicy() throws Exception {
		AnnotationConfigApplicationContext context = node(ReportConfiguration.class);
		ReportService service = context.getBean(ReportService.class);
		Locks locks = context.getBean(Locks.class);
		try (var held = locks.semaphore("single", 1).acquire(Duration.ofSeconds(5))) {
			assertThat(service.trySingle()).isFalse();
			assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> service.singleNow())
				.withMessageContaining("@Semaphore(\"single\") on ")
				.withMessageContaining("Lock 'single' was not acquired within a single try");
		}
	}

	public static class ReportService {

		final AtomicInteger perKeyRuns = new AtomicInteger();

		public int perKeyRuns() {
			return this.perKeyRuns.get();
		}

		@Semaphore(value = "reports", permitsString = "${reports.permits}", waitTime = "60s")
		public void build(Runnable body) {
			body.run();
		}

		@Semaphore(value = "failing", permits = 1, waitTime = "2s")
		public void failing() {
			throw new IllegalStateException("boom");
		}

		@Semaphore(value = "single", permits = 1, waitTime = "20s")
		public void single(Runnable body) {
			body.run();
		}

		@Semaphore(value = "single", permits = 1, waitTime = "0", onTimeout = OnTimeout.SKIP)
		public boolean trySingle() {
			return true;
		}

		@Semaphore(value = "single", permits = 1, waitTime = "0")
		public void singleNow() {
		}

		@Semaphore(value = "declared", permits = 2)
		public void declared(Runnable body) {
			body.run();
		}

		@Semaphore(value = "pools/#{#key}", permits = 2)
		public String perKey(Object key) {
			this.perKeyRuns.incrementAndGet();
			return "pools/" + key;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReportConfiguration {

		@Bean
		ReportService reportService() {
			return new ReportService();
		}

	}

	public static class DeclaredFive {

		final AtomicInteger runs = new AtomicInteger();

		public int runs() {
			return this.runs.get();
		}

		@Semaphore(value = "declared", permits = 5, waitTime = "5s")
		public void run() {
			this.runs.incrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class FiveConfiguration {

		@Bean
		DeclaredFive declaredFive() {
			return new DeclaredFive();
		}

	}

}
