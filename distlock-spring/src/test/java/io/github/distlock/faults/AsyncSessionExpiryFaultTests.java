package io.github.distlock.faults;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.core.CompletionStageLockContext;
import io.github.distlock.core.ReactiveLockContext;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.FencedStore;
import io.github.distlock.testsupport.LockTestContexts;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The holder's session expires (ended on the server) while an asynchronous locked
 * method's work runs: the caller gets a {@link LockLostException} as the error signal or
 * the failed stage instead of the result, another node takes the lock once ZooKeeper
 * expired the session, and the stale holder's late write to a fencing-checked store is
 * rejected.
 */
class AsyncSessionExpiryFaultTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts(
			ZooKeeperExtension.forFaults(Faults.NODES.withApplicationName("async-ledger")));

	private static AnnotationConfigApplicationContext context;

	/** The other node. */
	private static CuratorLocks other;

	@BeforeAll
	static void start() {
		other = contexts.zookeeper().newNode();
		context = contexts.start(AsyncLedgerConfiguration.class);
	}

	@BeforeEach
	void holderConnected() {
		try {
			await().atMost(Duration.ofSeconds(15)).until(() -> holderClient().getZookeeperClient().isConnected());
		}
		catch (org.awaitility.core.ConditionTimeoutException ex) {
			// What held up the client's new session, for the report.
			Thread.getAllStackTraces().forEach((thread, stack) -> {
				System.out.println("THREAD " + thread.getName() + " " + thread.getState());
				for (StackTraceElement element : stack) {
					System.out.println("    at " + element);
				}
			});
			throw ex;
		}
	}

	private static CuratorFramework holderClient() {
		return context.getBean(CuratorFramework.class);
	}

	private static AsyncLedger ledger() {
		return context.getBean(AsyncLedger.class);
	}

	/**
	 * Inside the locked work: expire the holder's session, wait until the holder knows,
	 * let another node take the lock and write with its newer token.
	 */
	private static void expireAndLetAnotherNodeWrite(LockContext held, FencedStore<String, Long> store, String key) {
		assertThat(held.isHeld()).isTrue();
		try {
			// Ended on the server, as a real expiry: the client learns of it at its next
			// ping and starts a new session (an expiry injected on the client side only
			// once left Curator with a closed handle and no event to start a new one).
			Faults.killSession(holderClient());
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> !held.isHeld());
		try (LockHandle successor = other.mutex(key).acquire(Duration.ofSeconds(15))) {
			assertThat(successor.fencingToken()).isGreaterThan(held.fencingToken());
			store.writeOrThrow(key, 2L, successor.fencingToken());
		}
	}

	@Test
	void monoWhoseLockIsLostEndsWithLockLostExceptionAndItsStaleWriteIsRejected() {
		FencedStore<String, Long> store = new FencedStore<>();
		AtomicReference<RuntimeException> staleWrite = new AtomicReference<>();
		Mono<String> recorded = ledger().record(1, ReactiveLockContext.current().map((held) -> {
			store.writeOrThrow("ledger/1", 1L, held.fencingToken());
			expireAndLetAnotherNodeWrite(held, store, "ledger/1");
			// The stale holder goes on anyway: the store rejects its token.
			try {
				store.writeOrThrow("ledger/1", 3L, held.fencingToken());
			}
			catch (RuntimeException ex) {
				staleWrite.set(ex);
			}
			return "recorded";
		}));
		StepVerifier.create(recorded)
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(LockLostException.class)
				.hasMessageContaining("AsyncLedger.record(long, Mono)")
				.hasMessageContaining("'ledger/1' is LOST (path template 'ledger/#{#id}')")
				.hasMessageContaining("result is discarded"))
			.verify(Duration.ofSeconds(60));
		assertThat(staleWrite.get()).isInstanceOf(FencedStore.StaleTokenException.class);
		assertThat(store.getAcceptedWrites("ledger/1")).extracting(FencedStore.Write::value).containsExactly(1L, 2L);
		assertThat(store.getRejectedCount()).isEqualTo(1);
	}

	@Test
	void fluxWhoseLockIsLostDeliversNoFurtherElementAndEndsWithLockLostException() {
		FencedStore<String, Long> store = new FencedStore<>();
		Flux<String> steps = ledger().steps(2, (held) -> expireAndLetAnotherNodeWrite(held, store, "ledger/2"));
		StepVerifier.create(steps)
			.expectNext("before")
			.expectErrorSatisfies((ex) -> assertThat(ex).isInstanceOf(LockLostException.class)
				.hasMessageContaining("'ledger/2' is LOST"))
			.verify(Duration.ofSeconds(60));
		try (LockHandle next = other.mutex("ledger/2").acquire(Duration.ofSeconds(15))) {
			assertThat(next.isHeld()).isTrue();
		}
	}

	@Test
	void stageWhoseLockIsLostFailsWithLockLostException() {
		FencedStore<String, Long> store = new FencedStore<>();
		CompletableFuture<String> computed = ledger().compute(3,
				(held) -> expireAndLetAnotherNodeWrite(held, store, "ledger/3"));
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> computed.get(60, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOf(LockLostException.class)
			.withMessageContaining("AsyncLedger.compute(long, Consumer)")
			.withMessageContaining("'ledger/3' is LOST");
		assertThat(store.getAcceptedWrites("ledger/3")).extracting(FencedStore.Write::value).containsExactly(2L);
	}

	static class AsyncLedger {

		@DistributedLock("ledger/#{#id}")
		public Mono<String> record(long id, Mono<String> work) {
			return work;
		}

		@DistributedLock("ledger/#{#id}")
		public Flux<String> steps(long id, Consumer<LockContext> whileLocked) {
			return Flux.just("before", "after").concatMap((step) -> ReactiveLockContext.current().map((held) -> {
				if (step.equals("after")) {
					whileLocked.accept(held);
				}
				return step;
			}));
		}

		@DistributedLock("ledger/#{#id}")
		public CompletableFuture<String> compute(long id, Consumer<LockContext> whileLocked) {
			LockContext held = CompletionStageLockContext.current();
			return CompletableFuture.supplyAsync(() -> {
				whileLocked.accept(held);
				return "computed";
			});
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AsyncLedgerConfiguration {

		@Bean
		AsyncLedger asyncLedger() {
			return new AsyncLedger();
		}

	}

}
