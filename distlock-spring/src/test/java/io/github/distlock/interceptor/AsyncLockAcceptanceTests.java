package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.LockTestContexts;
import io.github.distlock.testsupport.PathCounters;
import io.github.distlock.testsupport.ThreadPeak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Locked methods returning a {@code Mono}, a {@code Flux} or a {@code CompletableFuture}
 * hold their lock from before the method runs until the asynchronous work ends, on two
 * nodes (two application contexts, two ZooKeeper sessions): exact counts under load with
 * waiting calls that cost no thread, a hold that outlives the method's return, cancelled
 * waiters that leave no node, cancelled holders that release at once, and timed-out calls
 * that never run the method. Kotlin {@code suspend} functions have the same tests in
 * {@code SuspendFunctionLockTests}.
 */
class AsyncLockAcceptanceTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	private static final PathCounters counters = new PathCounters();

	private static AsyncService node1;

	private static AsyncService node2;

	private static CuratorLocks locks1;

	private static CuratorLocks locks2;

	private static CuratorFramework observer;

	@BeforeAll
	static void startNodes() {
		AnnotationConfigApplicationContext first = contexts.start(AsyncConfiguration.class);
		AnnotationConfigApplicationContext second = contexts.start(AsyncConfiguration.class);
		node1 = first.getBean(AsyncService.class);
		node2 = second.getBean(AsyncService.class);
		locks1 = first.getBean(CuratorLocks.class);
		locks2 = second.getBean(CuratorLocks.class);
		observer = contexts.zookeeper().newClient();
	}

	@ParameterizedTest
	@EnumSource
	void twoNodesTimesTwoHundredCallsOverTenPathsNeverOverlapAndWaitingCostsNoThread(Kind kind) throws Exception {
		int callsPerNode = 200;
		int paths = 10;
		int entriesBefore = counters.entries();
		List<CompletableFuture<?>> calls = new ArrayList<>();
		try (ThreadPeak peak = new ThreadPeak(() -> locks1.waitingCount() + locks2.waitingCount())) {
			for (int i = 0; i < callsPerNode; i++) {
				for (AsyncService node : List.of(node1, node2)) {
					calls.add(kind.increment(node, kind + "-" + (i % paths)));
				}
			}
			CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(3, TimeUnit.MINUTES);
			for (int path = 0; path < paths; path++) {
				assertThat(counters.value(kind + "-" + path)).as("counter of path %d", path)
					.isEqualTo(2 * callsPerNode / paths);
			}
			assertThat(counters.entries() - entriesBefore).isEqualTo(2 * callsPerNode);
			assertThat(counters.mostInsideOnePath()).isEqualTo(1);
			// Hundreds of calls waited at once, on a handful of threads.
			assertThat(peak.mostSampled()).as(peak.toString()).isGreaterThanOrEqualTo(100);
			assertThat(peak.growth()).as(peak.toString()).isLessThan(40);
		}
		// The methods ran on the application's executor, never on a ZooKeeper thread.
		assertThat(counters.threads()).isNotEmpty().allMatch((name) -> name.startsWith("app-"), "an app- thread");
	}

	@Test
	void holdSpansTheMonosWorkAfterTheMethodReturned() throws Exception {
		CompletableFuture<String> work = node1.holdAfterReturn().toFuture();
		await().atMost(Duration.ofSeconds(10)).until(() -> locks1.heldCount() == 1);
		assertThat(locks2.mutex("span").tryAcquire(Duration.ZERO)).isEmpty();
		assertThat(work).as("the try-once ran while the Mono was delaying").isNotDone();
		assertThat(work.get(10, TimeUnit.SECONDS)).isEqualTo("done");
		await().atMost(Duration.ofSeconds(2)).until(() -> tryOnce(locks2, "span"));
	}

	@ParameterizedTest
	@EnumSource
	void cancellingAWaitingCallLeavesNoLockNodeAndNeverRunsTheMethod(Kind kind) throws Exception {
		String path = "cancel-waiting-" + kind;
		int bodies = node1.bodies();
		try (LockHandle holder = locks2.mutex(path).acquire(Duration.ofSeconds(5))) {
			CompletableFuture<?> waiting = kind.hold(node1, path);
			await().atMost(Duration.ofSeconds(10)).until(() -> locks1.waitingCount() == 1);
			assertThat(lockNodes(path)).hasSize(2);
			waiting.cancel(false);
			await().atMost(Duration.ofSeconds(2)).until(() -> locks1.waitingCount() == 0);
			await().atMost(Duration.ofSeconds(2)).until(() -> lockNodes(path).size() == 1);
		}
		assertThat(node1.bodies()).isEqualTo(bodies);
		assertThat(locks1.heldCount()).isZero();
	}

	@ParameterizedTest
	@EnumSource
	void cancellingAHoldingCallReleasesTheLockAtOnce(Kind kind) throws Exception {
		String path = "cancel-holding-" + kind;
		int cancelled = node1.cancelled();
		CompletableFuture<?> holding = kind.hold(node1, path);
		await().atMost(Duration.ofSeconds(10)).until(() -> locks1.heldCount() == 1);
		assertThat(tryOnce(locks2, path)).isFalse();
		holding.cancel(false);
		await().atMost(Duration.ofSeconds(2)).until(() -> tryOnce(locks2, path));
		assertThat(node1.cancelled()).as("the method's work was cancelled").isEqualTo(cancelled + 1);
		assertThat(locks1.heldCount()).isZero();
	}

	@ParameterizedTest
	@EnumSource
	void timedOutCallsNeverRunTheMethod(Kind kind) throws Exception {
		String path = "busy-" + kind;
		int bodies = node1.bodies();
		try (LockHandle holder = locks2.mutex(path).acquire(Duration.ofSeconds(5))) {
			// THROW: the error comes as the stage's failure or the publisher's error
			// signal, never from the call itself.
			CompletableFuture<?> thrown = kind.failOnTimeout(node1, path);
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> thrown.get(10, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(LockTimeoutException.class)
				.withMessageContaining("AsyncService." + kind.name().toLowerCase() + "FailOnTimeout(String)")
				.withMessageContaining(path);
			assertThat(kind.skipOnTimeout(node1, path).get(10, TimeUnit.SECONDS)).isEqualTo(kind.empty());
			assertThat(kind.fallbackOnTimeout(node1, path).get(10, TimeUnit.SECONDS))
				.isEqualTo(kind.value("fallback for " + path + " after LockTimeoutException"));
		}
		assertThat(node1.bodies()).isEqualTo(bodies);
	}

	private static boolean tryOnce(CuratorLocks locks, String path) {
		Optional<LockHandle> handle = locks.mutex(path).tryAcquire(Duration.ZERO);
		handle.ifPresent(LockHandle::close);
		return handle.isPresent();
	}

	private static List<String> lockNodes(String path) throws Exception {
		String node = "/" + LockKind.MUTEX.subtree() + "/" + LockPath.parse(path).value();
		return (observer.checkExists().forPath(node) != null) ? observer.getChildren().forPath(node) : List.of();
	}

	/** How each asynchronous type is called and awaited. */
	enum Kind {

		MONO {
			@Override
			CompletableFuture<?> increment(AsyncService service, String path) {
				return service.monoIncrement(path).toFuture();
			}

			@Override
			CompletableFuture<?> hold(AsyncService service, String path) {
				return service.monoHold(path).toFuture();
			}

			@Override
			CompletableFuture<?> failOnTimeout(AsyncService service, String path) {
				return service.monoFailOnTimeout(path).toFuture();
			}

			@Override
			CompletableFuture<?> skipOnTimeout(AsyncService service, String path) {
				return service.monoSkipOnTimeout(path).toFuture();
			}

			@Override
			CompletableFuture<?> fallbackOnTimeout(AsyncService service, String path) {
				return service.monoFallbackOnTimeout(path).toFuture();
			}
		},

		FLUX {
			@Override
			CompletableFuture<?> increment(AsyncService service, String path) {
				return service.fluxIncrement(path).then().toFuture();
			}

			@Override
			CompletableFuture<?> hold(AsyncService service, String path) {
				return service.fluxHold(path).then().toFuture();
			}

			@Override
			CompletableFuture<?> failOnTimeout(AsyncService service, String path) {
				return service.fluxFailOnTimeout(path).collectList().toFuture();
			}

			@Override
			CompletableFuture<?> skipOnTimeout(AsyncService service, String path) {
				return service.fluxSkipOnTimeout(path).collectList().toFuture();
			}

			@Override
			CompletableFuture<?> fallbackOnTimeout(AsyncService service, String path) {
				return service.fluxFallbackOnTimeout(path).collectList().toFuture();
			}

			@Override
			Object empty() {
				return List.of();
			}

			@Override
			Object value(String value) {
				return List.of(value);
			}
		},

		FUTURE {
			@Override
			CompletableFuture<?> increment(AsyncService service, String path) {
				return service.futureIncrement(path);
			}

			@Override
			CompletableFuture<?> hold(AsyncService service, String path) {
				return service.futureHold(path);
			}

			@Override
			CompletableFuture<?> failOnTimeout(AsyncService service, String path) {
				return service.futureFailOnTimeout(path);
			}

			@Override
			CompletableFuture<?> skipOnTimeout(AsyncService service, String path) {
				return service.futureSkipOnTimeout(path);
			}

			@Override
			CompletableFuture<?> fallbackOnTimeout(AsyncService service, String path) {
				return service.futureFallbackOnTimeout(path);
			}
		};

		abstract CompletableFuture<?> increment(AsyncService service, String path);

		abstract CompletableFuture<?> hold(AsyncService service, String path);

		abstract CompletableFuture<?> failOnTimeout(AsyncService service, String path);

		abstract CompletableFuture<?> skipOnTimeout(AsyncService service, String path);

		abstract CompletableFuture<?> fallbackOnTimeout(AsyncService service, String path);

		/** What a skipped call gives, as awaited here. */
		Object empty() {
			return null;
		}

		/** What a call giving one value gives, as awaited here. */
		Object value(String value) {
			return value;
		}

	}

	static class AsyncService {

		final AtomicInteger bodies = new AtomicInteger();

		final AtomicInteger cancelled = new AtomicInteger();

		/** How many times a method body ran (read through the proxy). */
		public int bodies() {
			return this.bodies.get();
		}

		/** How many times a method's work was cancelled. */
		public int cancelled() {
			return this.cancelled.get();
		}

		// Each call reads its counter when the method starts, before it returns the
		// publisher or the stage: the method must not run before the lock is held.

		@DistributedLock(value = "counters/#{#path}", waitTime = "2m")
		public Mono<Integer> monoIncrement(String path) {
			int read = counters.enter(path);
			return Mono.delay(Duration.ofMillis(3)).map((tick) -> counters.leave(path, read));
		}

		@DistributedLock(value = "counters/#{#path}", waitTime = "2m")
		public Flux<Integer> fluxIncrement(String path) {
			int read = counters.enter(path);
			return Flux.range(1, 3)
				.delayElements(Duration.ofMillis(1))
				.concatWith(Mono.fromCallable(() -> counters.leave(path, read)));
		}

		@DistributedLock(value = "counters/#{#path}", waitTime = "2m")
		public CompletableFuture<Integer> futureIncrement(String path) {
			int read = counters.enter(path);
			return CompletableFuture.supplyAsync(() -> counters.leave(path, read),
					CompletableFuture.delayedExecutor(3, TimeUnit.MILLISECONDS));
		}

		@DistributedLock(value = "span", waitTime = "5s")
		public Mono<String> holdAfterReturn() {
			return Mono.delay(Duration.ofMillis(500)).thenReturn("done");
		}

		@DistributedLock(value = "#{#path}", waitTime = "30s")
		public Mono<String> monoHold(String path) {
			this.bodies.incrementAndGet();
			return Mono.<String>never().doOnCancel(this.cancelled::incrementAndGet);
		}

		@DistributedLock(value = "#{#path}", waitTime = "30s")
		public Flux<String> fluxHold(String path) {
			this.bodies.incrementAndGet();
			return Flux.<String>never().doOnCancel(this.cancelled::incrementAndGet);
		}

		@DistributedLock(value = "#{#path}", waitTime = "30s")
		public CompletableFuture<String> futureHold(String path) {
			this.bodies.incrementAndGet();
			CompletableFuture<String> never = new CompletableFuture<>();
			never.whenComplete((value, ex) -> this.cancelled.incrementAndGet());
			return never;
		}

		@DistributedLock(value = "#{#path}", waitTime = "100ms")
		public Mono<String> monoFailOnTimeout(String path) {
			return body();
		}

		@DistributedLock(value = "#{#path}", waitTime = "100ms", onTimeout = OnTimeout.SKIP)
		public Mono<String> monoSkipOnTimeout(String path) {
			return body();
		}

		@DistributedLock(value = "#{#path}", waitTime = "100ms", fallback = "monoFallback")
		public Mono<String> monoFallbackOnTimeout(String path) {
			return body();
		}

		Mono<String> monoFallback(String path, LockTimeoutException ex) {
			return Mono.just(fallback(path, ex));
		}

		@DistributedLock(value = "#{#path}", waitTime = "100ms")
		public Flux<String> fluxFailOnTimeout(String path) {
			return Flux.from(body());
		}

		@DistributedLock(value = "#{#path}", waitTime = "100ms", onTimeout = OnTimeout.SKIP)
		public Flux<String> fluxSkipOnTimeout(String path) {
			return Flux.from(body());
		}

		@DistributedLock(value = "#{#path}", waitTime = "100ms", fallback = "fluxFallback")
		public Flux<String> fluxFallbackOnTimeout(String path) {
			return Flux.from(body());
		}

		Flux<String> fluxFallback(String path, LockTimeoutException ex) {
			return Flux.just(fallback(path, ex));
		}

		@DistributedLock(value = "#{#path}", waitTime = "100ms")
		public CompletableFuture<String> futureFailOnTimeout(String path) {
			return body().toFuture();
		}

		@DistributedLock(value = "#{#path}", waitTime = "100ms", onTimeout = OnTimeout.SKIP)
		public CompletableFuture<String> futureSkipOnTimeout(String path) {
			return body().toFuture();
		}

		@DistributedLock(value = "#{#path}", waitTime = "100ms", fallback = "futureFallback")
		public CompletableFuture<String> futureFallbackOnTimeout(String path) {
			return body().toFuture();
		}

		CompletableFuture<String> futureFallback(String path, LockTimeoutException ex) {
			return CompletableFuture.completedFuture(fallback(path, ex));
		}

		private Mono<String> body() {
			this.bodies.incrementAndGet();
			return Mono.just("body");
		}

		private static String fallback(String path, LockTimeoutException ex) {
			return "fallback for " + path + " after " + ex.getClass().getSimpleName();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AsyncConfiguration {

		@Bean
		AsyncService asyncService() {
			return new AsyncService();
		}

		@Bean(name = LockTestContexts.APPLICATION_TASK_EXECUTOR)
		ThreadPoolTaskExecutor applicationTaskExecutor() {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setCorePoolSize(4);
			executor.setThreadNamePrefix("app-");
			return executor;
		}

	}

}
