package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.annotation.WriteLock;
import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockReentryException;
import io.github.distlock.core.LockUpgradeException;
import io.github.distlock.core.ReactiveLockContext;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reactive locked methods on every kind of lock, and reentrancy within one pipeline: a
 * nested call on the same path re-enters (the pipeline's scope travels in the Reactor
 * {@code Context}) and sees the pipeline's locks and fencing token through
 * {@link ReactiveLockContext}; a non-reentrant lock or a read-to-write upgrade fails
 * fast; readers share, writers exclude, a semaphore admits its permits, a
 * collection-valued path takes every lock.
 */
class ReactiveLockKindsTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	private static KindsService node1;

	private static KindsService node2;

	private static CuratorLocks locks1;

	private static CuratorLocks locks2;

	@BeforeAll
	static void startNodes() {
		AnnotationConfigApplicationContext first = contexts.start(KindsConfiguration.class);
		AnnotationConfigApplicationContext second = contexts.start(KindsConfiguration.class);
		node1 = first.getBean(KindsService.class);
		node2 = second.getBean(KindsService.class);
		locks1 = first.getBean(CuratorLocks.class);
		locks2 = second.getBean(CuratorLocks.class);
	}

	@Test
	void nestedCallOnTheSamePathReentersWithinOnePipelineAndSeesItsLocks() {
		List<LockContext> seen = node1.outer().block(Duration.ofSeconds(10));
		LockContext outer = seen.get(0);
		LockContext inner = seen.get(1);
		assertThat(outer.locks()).hasSize(1);
		assertThat(inner.locks()).hasSize(2);
		assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken()).isPositive();
		// Both handles were closed with the pipeline (the snapshots' states are live).
		assertThat(inner.isHeld()).isFalse();
		assertThat(locks1.heldCount()).isZero();
	}

	@Test
	void pipelineHoldsItsLockUnderItsOwnNameAndItsTokenIsTheEnginesToken() throws Exception {
		CompletableFuture<LockContext> release = new CompletableFuture<>();
		CompletableFuture<LockContext> held = node1.holdUntil("named", release).toFuture();
		await().atMost(Duration.ofSeconds(10)).until(() -> locks1.heldCount() == 1);
		HeldLock lock = locks1.heldLocks().get(0);
		assertThat(lock.holder())
			.isEqualTo("reactive ReactiveLockKindsTests.KindsService.holdUntil(String, " + "CompletableFuture)");
		release.complete(null);
		assertThat(held.get(10, TimeUnit.SECONDS).fencingToken()).isEqualTo(lock.fencingToken());
	}

	@Test
	void nestedCallsInAFluxReenterForEachElement() {
		StepVerifier.create(node1.eachReentering()).expectNext(2, 2, 2).expectComplete().verify(Duration.ofSeconds(10));
		assertThat(locks1.heldCount()).isZero();
	}

	@Test
	void nonReentrantLockTakenAgainWithinOnePipelineFailsFast() {
		long started = System.nanoTime();
		StepVerifier.create(node1.outerNonReentrant())
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(LockReentryException.class)
				.hasMessageContaining("KindsService.innerNonReentrant()")
				.hasMessageContaining("is already held by this pipeline"))
			.verify(Duration.ofSeconds(10));
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
		assertThat(node1.innerRuns()).isZero();
		await().atMost(Duration.ofSeconds(2)).until(() -> tryOnce(locks2, "single"));
	}

	@Test
	void readersOnTwoNodesShareTheReadLock() throws Exception {
		CompletableFuture<Void> bothInside = new CompletableFuture<>();
		AtomicInteger inside = new AtomicInteger();
		CompletableFuture<String> first = node1.read("shared", inside, bothInside).toFuture();
		CompletableFuture<String> second = node2.read("shared", inside, bothInside).toFuture();
		assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("read");
		assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("read");
	}

	@Test
	void writerExcludesReadersUntilItsWorkEnds() throws Exception {
		CompletableFuture<Void> release = new CompletableFuture<>();
		CompletableFuture<String> writing = node1.write("exclusive", release).toFuture();
		await().atMost(Duration.ofSeconds(10)).until(() -> locks1.heldCount() == 1);
		assertThat(node2.tryRead("exclusive").blockOptional(Duration.ofSeconds(10))).isEmpty();
		release.complete(null);
		assertThat(writing.get(10, TimeUnit.SECONDS)).isEqualTo("written");
		await().atMost(Duration.ofSeconds(2))
			.until(() -> node2.tryRead("exclusive").blockOptional(Duration.ofSeconds(10)).isPresent());
	}

	@Test
	void readerAskingForTheWriteLockInOnePipelineFailsFastAndWriterMayRead() {
		StepVerifier.create(node1.readThenWrite("upgrade"))
			.expectError(LockUpgradeException.class)
			.verify(Duration.ofSeconds(10));
		StepVerifier.create(node1.writeThenRead("downgrade"))
			.expectNext("read inside write")
			.expectComplete()
			.verify(Duration.ofSeconds(10));
		assertThat(locks1.heldCount()).isZero();
	}

	@Test
	void semaphoreAdmitsItsPermitsAcrossNodes() throws Exception {
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		List<CompletableFuture<Integer>> calls = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			for (KindsService node : List.of(node1, node2)) {
				calls.add(node.limited(inside, most).toFuture());
			}
		}
		CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		assertThat(most).hasValue(2);
	}

	@Test
	void collectionValuedPathTakesEveryLockUntilTheWorkEnds() throws Exception {
		CompletableFuture<Void> release = new CompletableFuture<>();
		CompletableFuture<Integer> transfer = node1.transfer(Set.of("a", "b"), release).toFuture();
		await().atMost(Duration.ofSeconds(10)).until(() -> locks1.heldCount() == 2);
		assertThat(tryOnce(locks2, "accounts/a")).isFalse();
		assertThat(tryOnce(locks2, "accounts/b")).isFalse();
		release.complete(null);
		assertThat(transfer.get(10, TimeUnit.SECONDS)).isEqualTo(2);
		await().atMost(Duration.ofSeconds(2))
			.until(() -> tryOnce(locks2, "accounts/a") && tryOnce(locks2, "accounts/b"));
	}

	private static boolean tryOnce(CuratorLocks locks, String path) {
		Optional<LockHandle> handle = locks.mutex(path).tryAcquire(Duration.ZERO);
		handle.ifPresent(LockHandle::close);
		return handle.isPresent();
	}

	static class KindsService {

		private final ObjectProvider<KindsService> self;

		private final AtomicInteger innerRuns = new AtomicInteger();

		KindsService(ObjectProvider<KindsService> self) {
			this.self = self;
		}

		public int innerRuns() {
			return this.innerRuns.get();
		}

		@DistributedLock(value = "nest", waitTime = "5s")
		public Mono<List<LockContext>> outer() {
			return ReactiveLockContext.current()
				.flatMap((outer) -> this.self.getObject().inner().map((inner) -> List.of(outer, inner)));
		}

		@DistributedLock(value = "nest", waitTime = "0")
		public Mono<LockContext> inner() {
			return ReactiveLockContext.current();
		}

		@DistributedLock(value = "#{#path}", waitTime = "5s")
		public Mono<LockContext> holdUntil(String path, CompletableFuture<LockContext> release) {
			return Mono.fromFuture(release).then(ReactiveLockContext.current());
		}

		@DistributedLock(value = "each", waitTime = "5s")
		public Flux<Integer> eachReentering() {
			return Flux.range(1, 3).concatMap((i) -> this.self.getObject().countLocks());
		}

		@DistributedLock(value = "each", waitTime = "0")
		public Mono<Integer> countLocks() {
			return ReactiveLockContext.current().map((context) -> context.locks().size());
		}

		@DistributedLock(value = "single", reentrant = false)
		public Mono<Void> outerNonReentrant() {
			return this.self.getObject().innerNonReentrant();
		}

		@DistributedLock(value = "single", reentrant = false, waitTime = "30s")
		public Mono<Void> innerNonReentrant() {
			this.innerRuns.incrementAndGet();
			return Mono.empty();
		}

		@ReadLock(value = "docs/#{#path}", waitTime = "5s")
		public Mono<String> read(String path, AtomicInteger inside, CompletableFuture<Void> bothInside) {
			if (inside.incrementAndGet() == 2) {
				bothInside.complete(null);
			}
			return Mono.fromFuture(bothInside).timeout(Duration.ofSeconds(5)).thenReturn("read");
		}

		@ReadLock(value = "docs/#{#path}", waitTime = "0", onTimeout = OnTimeout.SKIP)
		public Mono<String> tryRead(String path) {
			return Mono.just("read");
		}

		@WriteLock(value = "docs/#{#path}", waitTime = "5s")
		public Mono<String> write(String path, CompletableFuture<Void> release) {
			return Mono.fromFuture(release).thenReturn("written");
		}

		@ReadLock(value = "docs/#{#path}", waitTime = "5s")
		public Mono<String> readThenWrite(String path) {
			return this.self.getObject().write(path, CompletableFuture.completedFuture(null));
		}

		@WriteLock(value = "docs/#{#path}", waitTime = "5s")
		public Mono<String> writeThenRead(String path) {
			return this.self.getObject().readInside(path);
		}

		@ReadLock(value = "docs/#{#path}", waitTime = "0")
		public Mono<String> readInside(String path) {
			return Mono.just("read inside write");
		}

		@Semaphore(value = "limited", permits = 2, waitTime = "30s")
		public Mono<Integer> limited(AtomicInteger inside, AtomicInteger most) {
			most.accumulateAndGet(inside.incrementAndGet(), Math::max);
			return Mono.delay(Duration.ofMillis(50)).map((tick) -> inside.decrementAndGet());
		}

		@DistributedLock(value = "accounts/#{#ids}", waitTime = "5s")
		public Mono<Integer> transfer(Set<String> ids, CompletableFuture<Void> release) {
			return Mono.fromFuture(release).then(ReactiveLockContext.current()).map((lock) -> lock.locks().size());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class KindsConfiguration {

		@Bean
		KindsService kindsService(ObjectProvider<KindsService> self) {
			return new KindsService(self);
		}

	}

}
