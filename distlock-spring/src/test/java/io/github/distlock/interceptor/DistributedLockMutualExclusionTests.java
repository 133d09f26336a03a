package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.LockReentryException;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code @DistributedLock} excludes across nodes and threads, and re-enters as declared.
 */
class DistributedLockMutualExclusionTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	@Test
	void sixteenThreadsOnTwoNodesNeverOverlapAndLoseNoIncrement() throws Exception {
		SharedCounter counter = new SharedCounter();
		List<CounterService> services = new ArrayList<>();
		for (int node = 0; node < 2; node++) {
			AnnotationConfigApplicationContext context = contexts
				.start((ctx) -> ctx.registerBean(SharedCounter.class, () -> counter), CounterConfiguration.class);
			services.add(context.getBean(CounterService.class));
		}
		assertThat(services.get(0)).isNotSameAs(services.get(1));
		int threadsPerNode = 8;
		int incrementsPerThread = 15;
		ExecutorService executor = Executors.newFixedThreadPool(2 * threadsPerNode);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> futures = new ArrayList<>();
		for (CounterService service : services) {
			for (int t = 0; t < threadsPerNode; t++) {
				futures.add(executor.submit(() -> {
					start.await();
					for (int i = 0; i < incrementsPerThread; i++) {
						service.increment();
					}
					return null;
				}));
			}
		}
		start.countDown();
		for (Future<?> future : futures) {
			future.get(60, TimeUnit.SECONDS);
		}
		executor.shutdown();
		assertThat(counter.value).isEqualTo(2 * threadsPerNode * incrementsPerThread);
		assertThat(counter.maxInside.get()).isEqualTo(1);
		assertThat(counter.entries.get()).isEqualTo(2 * threadsPerNode * incrementsPerThread);
	}

	@Test
	void nestedCallsOnOnePathReenterOnOneThread() {
		AnnotationConfigApplicationContext context = contexts.start(ReentrancyConfiguration.class);
		ReentrantService service = context.getBean(ReentrantService.class);
		Locks locks = context.getBean(Locks.class);
		assertThat(service.outer(locks)).isEqualTo("outer(inner)");
		assertThat(locks.mutex("reentrant").tryAcquire(Duration.ZERO)).hasValueSatisfying((handle) -> handle.close());
	}

	@Test
	void nonReentrantLockTakenAgainByItsHolderFailsFast() {
		AnnotationConfigApplicationContext context = contexts.start(ReentrancyConfiguration.class);
		ReentrantService service = context.getBean(ReentrantService.class);
		long started = System.nanoTime();
		assertThatExceptionOfType(LockReentryException.class).isThrownBy(service::outerNonReentrant)
			.withMessageContaining("ReentrantService.innerNonReentrant()")
			.withMessageContaining("'single'");
		// The inner call waits up to 30s if it does not detect the reentry.
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
		assertThat(service.innerRuns()).isZero();
		// The outer lock was released despite the failure.
		assertThat(context.getBean(Locks.class).nonReentrantMutex("single").tryAcquire(Duration.ZERO))
			.hasValueSatisfying((handle) -> handle.close());
	}

	static class SharedCounter {

		final AtomicInteger inside = new AtomicInteger();

		final AtomicInteger maxInside = new AtomicInteger();

		final AtomicInteger entries = new AtomicInteger();

		int value;

	}

	static class CounterService {

		private final SharedCounter counter;

		CounterService(SharedCounter counter) {
			this.counter = counter;
		}

		@DistributedLock(value = "counter", waitTime = "30s")
		public void increment() {
			int inside = this.counter.inside.incrementAndGet();
			this.counter.maxInside.accumulateAndGet(inside, Math::max);
			this.counter.entries.incrementAndGet();
			int read = this.counter.value;
			Thread.yield();
			this.counter.value = read + 1;
			this.counter.inside.decrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CounterConfiguration {

		@Bean
		CounterService counterService(SharedCounter counter) {
			return new CounterService(counter);
		}

	}

	static class ReentrantService {

		final AtomicInteger innerRuns = new AtomicInteger();

		private ReentrantService self;

		void setSelf(ReentrantService self) {
			this.self = self;
		}

		public int innerRuns() {
			return this.innerRuns.get();
		}

		@DistributedLock("reentrant")
		public String outer(Locks locks) {
			assertThat(locks.mutex("reentrant").isHeldByCurrentThread()).isTrue();
			return "outer(" + this.self.inner() + ")";
		}

		@DistributedLock(value = "reentrant", waitTime = "0")
		public String inner() {
			return "inner";
		}

		@DistributedLock(path = "single", reentrant = false)
		public void outerNonReentrant() {
			this.self.innerNonReentrant();
		}

		@DistributedLock(path = "single", reentrant = false, waitTime = "30s")
		public void innerNonReentrant() {
			this.innerRuns.incrementAndGet();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ReentrancyConfiguration {

		@Bean
		ReentrantService reentrantService() {
			return new ReentrantService();
		}

		@Bean
		static org.springframework.beans.factory.SmartInitializingSingleton wireSelf(
				org.springframework.beans.factory.ObjectProvider<ReentrantService> service) {
			return () -> service.getObject().setSelf(service.getObject());
		}

	}

}
