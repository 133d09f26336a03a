package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.core.CompletionStageLockContext;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What is particular to locked methods returning a {@code CompletionStage}: each call
 * holds its lock for itself (not reentrant), so a stage method that waits for a call on
 * the path it holds gets its wait time and then a {@link LockTimeoutException}; the
 * method reads its locks through {@link CompletionStageLockContext}; a skipped call of a
 * stage of {@code Optional} gives {@code Optional.empty()}; the kinds of lock work as for
 * synchronous methods.
 */
class CompletionStageLockTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	private static StageService node1;

	private static CuratorLocks locks1;

	private static CuratorLocks locks2;

	@BeforeAll
	static void startNodes() {
		AnnotationConfigApplicationContext first = contexts.start(StageConfiguration.class);
		AnnotationConfigApplicationContext second = contexts.start(StageConfiguration.class);
		node1 = first.getBean(StageService.class);
		locks1 = first.getBean(CuratorLocks.class);
		locks2 = second.getBean(CuratorLocks.class);
	}

	@Test
	void stageMethodWaitingForACallOnThePathItHoldsTimesOutAfterItsWaitTime() {
		long started = System.nanoTime();
		CompletableFuture<String> outer = node1.outer();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> outer.get(20, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOf(LockTimeoutException.class)
			.withMessageContaining("StageService.inner()")
			.withMessageContaining("'self'");
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
		await().atMost(Duration.ofSeconds(2)).until(() -> locks1.heldCount() == 0);
	}

	@Test
	void methodReadsItsLocksThroughCompletionStageLockContext() throws Exception {
		List<Object> seen = node1.fenced().get(10, TimeUnit.SECONDS);
		LockContext stage = (LockContext) seen.get(0);
		assertThat(stage.locks()).hasSize(1);
		assertThat(stage.locks().get(0).path().value()).isEqualTo("fenced");
		assertThat(stage.fencingToken()).isPositive();
		assertThat(seen.get(1)).as("the thread's own locks").isEqualTo(0);
		// A snapshot whose state stays live: released with the stage.
		assertThat(stage.isHeld()).isFalse();
	}

	@Test
	void skippedStageOfOptionalGivesEmptyOptional() throws Exception {
		try (LockHandle holder = locks2.mutex("optional").acquire(Duration.ofSeconds(5))) {
			assertThat(node1.optional().toCompletableFuture().get(10, TimeUnit.SECONDS)).isEmpty();
		}
		// The other client's release reaches the server in the background: the method
		// (100ms to wait) runs once its client reads the node gone.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> locks1.admin().locks().stream().noneMatch((lock) -> lock.path().value().equals("optional")));
		assertThat(node1.optional().toCompletableFuture().get(10, TimeUnit.SECONDS)).contains("value");
	}

	@Test
	void semaphoreAdmitsItsPermits() throws Exception {
		CompletableFuture<Void> release = new CompletableFuture<>();
		CompletableFuture<String> first = node1.permit(release);
		CompletableFuture<String> second = node1.permit(release);
		await().atMost(Duration.ofSeconds(10)).until(() -> locks1.heldCount() == 2);
		assertThat(locks2.semaphore("permits", 2).tryAcquire(Duration.ZERO)).isEmpty();
		release.complete(null);
		assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("permit");
		assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("permit");
		await().atMost(Duration.ofSeconds(2)).until(() -> {
			Optional<LockHandle> permit = locks2.semaphore("permits", 2).tryAcquire(Duration.ZERO);
			permit.ifPresent(LockHandle::close);
			return permit.isPresent();
		});
	}

	static class StageService {

		private final ObjectProvider<StageService> self;

		StageService(ObjectProvider<StageService> self) {
			this.self = self;
		}

		@DistributedLock(value = "self", waitTime = "10s")
		public CompletableFuture<String> outer() {
			return this.self.getObject().inner();
		}

		@DistributedLock(value = "self", waitTime = "300ms")
		public CompletableFuture<String> inner() {
			return CompletableFuture.completedFuture("never");
		}

		@DistributedLock(value = "fenced", waitTime = "5s")
		public CompletableFuture<List<Object>> fenced() {
			LockContext lock = CompletionStageLockContext.current();
			int threadLocks = LockContext.current().locks().size();
			return CompletableFuture.supplyAsync(() -> List.<Object>of(lock, threadLocks));
		}

		@DistributedLock(value = "optional", waitTime = "100ms", onTimeout = OnTimeout.SKIP)
		public CompletionStage<Optional<String>> optional() {
			return CompletableFuture.completedFuture(Optional.of("value"));
		}

		@Semaphore(value = "permits", permits = 2, waitTime = "5s")
		public CompletableFuture<String> permit(CompletableFuture<Void> release) {
			return release.thenApply((ignored) -> "permit");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class StageConfiguration {

		@Bean
		StageService stageService(ObjectProvider<StageService> self) {
			return new StageService(self);
		}

	}

}
