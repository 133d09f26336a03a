package io.github.distlock.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.AsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.PathCounters;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The auto-configured locks complete asynchronous acquisitions, so the methods of
 * asynchronous locked calls run, on a pool built with Spring Boot's task execution
 * settings whose idle threads end after a second (or on Boot's
 * {@code applicationTaskExecutor} itself with {@code spring.threads.virtual.enabled}),
 * never on a ZooKeeper thread; and synchronous locked calls on virtual threads wait
 * without holding a carrier thread each.
 */
class DistlockTaskExecutorTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final ApplicationContextRunner contextRunner = DistlockContextRunners
		.applicationContextRunner(zookeeper, TaskExecutionAutoConfiguration.class, DistlockAutoConfiguration.class)
		.withUserConfiguration(WorkConfiguration.class);

	@Test
	void asynchronousLockedMethodsRunOnAPoolBuiltLikeTheApplicationTaskExecutorWhoseIdleThreadsEnd() {
		this.contextRunner.run((context) -> {
			Work work = context.getBean(Work.class);
			assertThat(work.mono().block(Duration.ofSeconds(10))).startsWith("distlock-task-");
			assertThat(work.future().get(10, TimeUnit.SECONDS)).startsWith("distlock-task-");
			// Chained through the completion executor: a plain thenApply runs on the
			// caller when the grant came first (a loaded run saw "main").
			Locks locks = context.getBean(Locks.class);
			assertThat(locks.mutex("direct").acquireAsync(Duration.ofSeconds(5)).thenApplyAsync((handle) -> {
				handle.close();
				return Thread.currentThread().getName();
			}, locks.completionExecutor()).get(10, TimeUnit.SECONDS)).startsWith("distlock-task-");
			// Idle, they end (after a second): a non-web application can exit.
			await().atMost(Duration.ofSeconds(30)).until(() -> distlockTaskThreads().isEmpty());
		});
	}

	@Test
	void theApplicationsTaskDecoratorAndPoolSettingsApplyToDistlocksThreads() {
		this.contextRunner.withUserConfiguration(DecoratorConfiguration.class)
			.withPropertyValues("spring.task.execution.pool.core-size=1", "spring.task.execution.pool.max-size=1",
					"spring.task.execution.pool.queue-capacity=100")
			.run((context) -> {
				Work work = context.getBean(Work.class);
				assertThat(work.decorated().get(10, TimeUnit.SECONDS)).isEqualTo("decorated");
				List<CompletableFuture<String>> calls = new ArrayList<>();
				for (int i = 0; i < 10; i++) {
					calls.add(work.free(i));
				}
				assertThat(calls.stream().map(CompletableFuture::join).distinct()).hasSize(1);
			});
	}

	@Test
	void withoutATaskExecutorAcquisitionsCompleteOnDistlocksOwnThreads() {
		DistlockContextRunners.applicationContextRunner(zookeeper, DistlockAutoConfiguration.class)
			.withUserConfiguration(WorkConfiguration.class)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(AsyncTaskExecutor.class);
				assertThat(context.getBean(Work.class).mono().block(Duration.ofSeconds(10)))
					.startsWith("distlock-async-");
			});
	}

	@Test
	@EnabledForJreRange(min = JRE.JAVA_21)
	void withVirtualThreadsEnabledAsynchronousLockedMethodsRunOnVirtualThreads() {
		this.contextRunner.withPropertyValues("spring.threads.virtual.enabled=true").run((context) -> {
			Work work = context.getBean(Work.class);
			assertThat(work.monoOnVirtualThread().block(Duration.ofSeconds(10))).isTrue();
			assertThat(work.futureOnVirtualThread().get(10, TimeUnit.SECONDS)).isTrue();
		});
	}

	@Test
	@EnabledForJreRange(min = JRE.JAVA_21)
	void twoThousandConcurrentSynchronousCallsOnVirtualThreadsOverTwentyHotPathsAllCompleteWithExactCounts() {
		ApplicationContextRunner virtual = this.contextRunner.withPropertyValues("spring.threads.virtual.enabled=true");
		virtual.run((first) -> virtual.run((second) -> {
			PathCounters counters = new PathCounters();
			List<CompletableFuture<Boolean>> calls = new ArrayList<>();
			for (int i = 0; i < 2000; i++) {
				Work node = ((i % 2 == 0) ? first : second).getBean(Work.class);
				String path = "hot-" + (i % 20);
				calls.add(first.getBean(AsyncTaskExecutor.class).submitCompletable(() -> node.count(counters, path)));
			}
			CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
			for (int path = 0; path < 20; path++) {
				assertThat(counters.value("hot-" + path)).isEqualTo(100);
			}
			assertThat(counters.mostInsideOnePath()).isEqualTo(1);
			assertThat(calls).allMatch((call) -> call.join(), "ran on a virtual thread");
		}));
	}

	private static List<String> distlockTaskThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.map(Thread::getName)
			.filter((name) -> name.startsWith("distlock-task-"))
			.toList();
	}

	static boolean currentThreadIsVirtual() {
		try {
			return (boolean) Thread.class.getMethod("isVirtual").invoke(Thread.currentThread());
		}
		catch (ReflectiveOperationException ex) {
			return false;
		}
	}

	static class Work {

		@DistributedLock(value = "work", waitTime = "10s")
		public Mono<String> mono() {
			return Mono.just(Thread.currentThread().getName());
		}

		@DistributedLock(value = "work", waitTime = "10s")
		public CompletableFuture<String> future() {
			return CompletableFuture.completedFuture(Thread.currentThread().getName());
		}

		@DistributedLock(value = "virtual", waitTime = "10s")
		public Mono<Boolean> monoOnVirtualThread() {
			return Mono.just(currentThreadIsVirtual());
		}

		@DistributedLock(value = "virtual", waitTime = "10s")
		public CompletableFuture<Boolean> futureOnVirtualThread() {
			return CompletableFuture.completedFuture(currentThreadIsVirtual());
		}

		@DistributedLock(value = "decorated", waitTime = "10s")
		public CompletableFuture<String> decorated() {
			return CompletableFuture.completedFuture(String.valueOf(DECORATED.get()));
		}

		@DistributedLock(value = "free/#{#id}", waitTime = "10s")
		public CompletableFuture<String> free(int id) {
			return CompletableFuture.completedFuture(Thread.currentThread().getName());
		}

		@DistributedLock(value = "#{#path}", waitTime = "2m")
		public boolean count(PathCounters counters, String path) {
			int read = counters.enter(path);
			Thread.yield();
			counters.leave(path, read);
			return currentThreadIsVirtual();
		}

	}

	static final ThreadLocal<String> DECORATED = new ThreadLocal<>();

	@Configuration(proxyBeanMethods = false)
	static class DecoratorConfiguration {

		@Bean
		TaskDecorator decorator() {
			return (task) -> () -> {
				DECORATED.set("decorated");
				try {
					task.run();
				}
				finally {
					DECORATED.remove();
				}
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class WorkConfiguration {

		@Bean
		Work work() {
			return new Work();
		}

	}

}
