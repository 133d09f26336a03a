package io.github.distlock.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.AsyncTaskExecutor;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.PathCounters;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-configured locks complete asynchronous acquisitions on Spring Boot's
 * {@code applicationTaskExecutor}, so the methods of asynchronous locked calls run there
 * (on virtual threads with {@code spring.threads.virtual.enabled}), never on a ZooKeeper
 * thread; and synchronous locked calls on virtual threads wait without holding a carrier
 * thread each.
 */
class DistlockTaskExecutorTests {

	private static TestingServer server;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class, DistlockAutoConfiguration.class))
		.withUserConfiguration(WorkConfiguration.class)
		.withPropertyValues("distlock.zookeeper.connect-string=" + server.getConnectString(),
				"distlock.zookeeper.session-timeout=5s", "distlock.zookeeper.connection-timeout=3s");

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer();
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@Test
	void asynchronousLockedMethodsRunOnTheApplicationTaskExecutor() {
		this.contextRunner.run((context) -> {
			Work work = context.getBean(Work.class);
			assertThat(work.mono().block(Duration.ofSeconds(10))).startsWith("task-");
			assertThat(work.future().get(10, TimeUnit.SECONDS)).startsWith("task-");
			assertThat(context.getBean(Locks.class)
				.mutex("direct")
				.acquireAsync(Duration.ofSeconds(5))
				.thenApply((handle) -> {
					handle.close();
					return Thread.currentThread().getName();
				})
				.get(10, TimeUnit.SECONDS)).startsWith("task-");
		});
	}

	@Test
	void withoutATaskExecutorAcquisitionsCompleteOnDistlocksOwnThreads() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DistlockAutoConfiguration.class))
			.withUserConfiguration(WorkConfiguration.class)
			.withPropertyValues("distlock.zookeeper.connect-string=" + server.getConnectString())
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

		@DistributedLock(value = "#{#path}", waitTime = "2m")
		public boolean count(PathCounters counters, String path) {
			int read = counters.enter(path);
			Thread.yield();
			counters.leave(path, read);
			return currentThreadIsVirtual();
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
