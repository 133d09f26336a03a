package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.WriteLock;
import io.github.distlock.core.InvalidLockPathException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A path template whose part gives a collection locks every resulting path: all or none,
 * in sorted order, within one wait time for the whole set.
 */
class MultiLockAnnotationTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	private ExecutorService pool;

	private AnnotationConfigApplicationContext context1;

	private AnnotationConfigApplicationContext context2;

	private AccountService node1;

	private AccountService node2;

	@BeforeEach
	void startNodes() throws InterruptedException {
		this.pool = Executors.newCachedThreadPool();
		this.context1 = contexts.start(AccountConfiguration.class);
		this.context2 = contexts.start(AccountConfiguration.class);
		for (AnnotationConfigApplicationContext context : List.of(this.context1, this.context2)) {
			assertThat(context.getBean(CuratorFramework.class).blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		}
		this.node1 = this.context1.getBean(AccountService.class);
		this.node2 = this.context2.getBean(AccountService.class);
	}

	@AfterEach
	void stopPool() {
		this.pool.shutdownNow();
	}

	@Test
	void callersLockingTheSamePairInOppositeOrdersForTwentySecondsNeverDeadlock() throws Exception {
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger maxInside = new AtomicInteger();
		Runnable body = () -> {
			maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
			Thread.yield();
			inside.decrementAndGet();
		};
		long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
		List<Future<Integer>> futures = new ArrayList<>();
		for (int t = 0; t < 2; t++) {
			futures.add(this.pool.submit(() -> loop(this.node1, List.of("A", "B"), body, end)));
			futures.add(this.pool.submit(() -> loop(this.node2, List.of("B", "A"), body, end)));
		}
		int total = 0;
		for (Future<Integer> future : futures) {
			// A deadlock would end in a LockTimeoutException after 10 s: the call's
			// wait time.
			int calls = future.get(60, TimeUnit.SECONDS);
			assertThat(calls).isPositive();
			total += calls;
		}
		assertThat(maxInside).hasValue(1);
		assertThat(total).isGreaterThan(20);
	}

	private static int loop(AccountService service, List<String> ids, Runnable body, long end) {
		int calls = 0;
		while (System.nanoTime() < end) {
			service.transfer(ids, body);
			calls++;
		}
		return calls;
	}

	@Test
	void onePathUnavailableLeavesNothingLockedAndTheMethodDoesNotRun() throws Exception {
		Locks locks2 = this.context2.getBean(Locks.class);
		try (LockHandle held = locks2.mutex("accounts/B").acquire(Duration.ofSeconds(5))) {
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> this.node1.transferWithin(List.of("C", "A", "B"), Duration.ofMillis(300)))
				.withMessageStartingWith("@DistributedLock(\"accounts/#{#ids}\") on ")
				.withMessageContaining("AccountService.transferWithin(List, Duration)")
				.withMessageContaining(
						"Multi-lock over [accounts/A, accounts/B, accounts/C] was not acquired within 300ms "
								+ "for the whole set");
			// The timeout names the path the set waited for when its time ran out: with B
			// first in order, B whatever the scheduling (with A first, a loaded machine
			// may spend the wait time on the free A, and A is named).
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> this.node1.transferWithin(List.of("C", "B"), Duration.ofMillis(300)))
				.withMessageContaining("Multi-lock over [accounts/B, accounts/C] was not acquired within 300ms")
				.satisfies((ex) -> assertThat(ex.getPath()).isEqualTo(LockPath.parse("accounts/B")));
			assertThat(this.node1.trySkip(List.of("A", "B"))).isNull();
			assertThat(this.node1.tryFallback(List.of("B", "C"))).isEqualTo("busy accounts/B");
			assertThat(this.node1.runs()).isZero();
			// A, if it was taken before the time ran out, was released: another node gets
			// it at once, and no lock node is left under A or C.
			assertThat(locks2.mutex("accounts/A").tryAcquire(Duration.ofSeconds(1)))
				.hasValueSatisfying(LockHandle::close);
			assertThat(locks2.mutex("accounts/C").tryAcquire(Duration.ofSeconds(1)))
				.hasValueSatisfying(LockHandle::close);
			// A close sends the delete and returns: its node goes once the server has it.
			CuratorFramework client = this.context1.getBean(CuratorFramework.class);
			for (String path : List.of("/mutex/accounts/A", "/mutex/accounts/C")) {
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat((client.checkExists().forPath(path) != null)
							? client.getChildren().forPath(path) : List.of())
						.as(path)
						.isEmpty());
			}
		}
		assertThat(this.node1.tryFallback(List.of("B", "C"))).isEqualTo("ran");
		assertThat(this.node1.runs()).isEqualTo(1);
	}

	@Test
	void theWholeSetSharesOneWaitTime() throws Exception {
		Locks locks2 = this.context2.getBean(Locks.class);
		CountDownLatch aHeld = new CountDownLatch(1);
		CountDownLatch releaseA = new CountDownLatch(1);
		Future<?> holderOfA = this.pool.submit(() -> {
			try (LockHandle a = locks2.mutex("accounts/A").acquire(Duration.ofSeconds(5))) {
				aHeld.countDown();
				releaseA.await(30, TimeUnit.SECONDS);
			}
			return null;
		});
		ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
		try (LockHandle c = locks2.mutex("accounts/C").acquire(Duration.ofSeconds(5))) {
			assertThat(aHeld.await(10, TimeUnit.SECONDS)).isTrue();
			// A frees up after 1.2 s of the 2 s; C never does. With one deadline the call
			// gives up after 2 s in all; with the full wait per lock it would take 3.2 s.
			timer.schedule(releaseA::countDown, 1200, TimeUnit.MILLISECONDS);
			long started = System.nanoTime();
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> this.node1.transferWithin(List.of("A", "B", "C"), Duration.ofSeconds(2)))
				.satisfies((ex) -> assertThat(ex.getPath()).isEqualTo(LockPath.parse("accounts/C")));
			Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
			assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofMillis(2000)).isLessThan(Duration.ofMillis(3200));
			assertThat(this.node1.runs()).isZero();
			holderOfA.get(10, TimeUnit.SECONDS);
			assertThat(locks2.mutex("accounts/A").tryAcquire(Duration.ofSeconds(1)))
				.hasValueSatisfying(LockHandle::close);
			assertThat(locks2.mutex("accounts/B").tryAcquire(Duration.ofSeconds(1)))
				.hasValueSatisfying(LockHandle::close);
		}
		finally {
			timer.shutdownNow();
		}
	}

	@Test
	void duplicatesCollapseToOneLock() throws Exception {
		CuratorFramework client = this.context1.getBean(CuratorFramework.class);
		List<Integer> nodes = new ArrayList<>();
		this.node1.transfer(List.of("D", "D", "E"), () -> {
			try {
				nodes.add(client.getChildren().forPath("/mutex/accounts/D").size());
				nodes.add(client.getChildren().forPath("/mutex/accounts/E").size());
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		assertThat(nodes).containsExactly(1, 1);
	}

	@Test
	void emptyCollectionFailsTheCallNamingMethodTemplateAndPart() {
		AtomicInteger ran = new AtomicInteger();
		assertThatExceptionOfType(InvalidLockPathException.class)
			.isThrownBy(() -> this.node1.transfer(List.of(), ran::incrementAndGet))
			.withMessageContaining("AccountService.transfer(List, Runnable)")
			.withMessageContaining("part #{#ids} of path template 'accounts/#{#ids}' gave an empty collection");
		assertThat(ran).hasValue(0);
	}

	@Test
	void writeLockOverASetKeepsReadersOfAnyMemberOut() throws Exception {
		ReadWriteLockAnnotationTests.Gate writer = new ReadWriteLockAnnotationTests.Gate();
		Future<?> writing = this.pool.submit(() -> this.node1.writeAll(Set.of("x", "y"), writer));
		writer.awaitEntered();
		assertThat(this.node2.tryReadAll(List.of("y", "z"))).isFalse();
		assertThat(this.node2.tryReadAll(List.of("z"))).isTrue();
		writer.release();
		writing.get(30, TimeUnit.SECONDS);
		assertThat(this.node2.tryReadAll(List.of("y", "z"))).isTrue();
	}

	@Test
	void readLocksOverOverlappingSetsOnTwoNodesAreHeldAtTheSameMoment() throws Exception {
		CyclicBarrier bothInside = new CyclicBarrier(2);
		Future<Integer> first = this.pool
			.submit(() -> this.node1.readAllAtBarrier(new String[] { "x", "y" }, bothInside));
		Future<Integer> second = this.pool
			.submit(() -> this.node2.readAllAtBarrier(new String[] { "y", "x", "w" }, bothInside));
		assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(2);
		assertThat(second.get(30, TimeUnit.SECONDS)).isEqualTo(3);
	}

	public static class AccountService {

		private final AtomicInteger runs = new AtomicInteger();

		public int runs() {
			return this.runs.get();
		}

		@DistributedLock(value = "accounts/#{#ids}", waitTime = "10s")
		public void transfer(List<String> ids, Runnable body) {
			body.run();
		}

		@DistributedLock(value = "accounts/#{#ids}", waitTime = "#{#wait}")
		public void transferWithin(List<String> ids, Duration wait) {
			this.runs.incrementAndGet();
		}

		@DistributedLock(value = "accounts/#{#ids}", waitTime = "0", onTimeout = OnTimeout.SKIP)
		public String trySkip(List<String> ids) {
			this.runs.incrementAndGet();
			return "ran";
		}

		@DistributedLock(value = "accounts/#{#ids}", waitTime = "1s", fallback = "busy")
		public String tryFallback(List<String> ids) {
			this.runs.incrementAndGet();
			return "ran";
		}

		String busy(List<String> ids, LockTimeoutException ex) {
			return "busy " + ex.getPath();
		}

		@WriteLock(value = "ledgers/#{#ids}", waitTime = "10s")
		public void writeAll(Set<String> ids, ReadWriteLockAnnotationTests.Gate gate) {
			gate.enter();
		}

		@ReadLock(value = "ledgers/#{#ids}", waitTime = "1s", onTimeout = OnTimeout.SKIP)
		public boolean tryReadAll(Collection<String> ids) {
			return true;
		}

		@ReadLock(value = "ledgers/#{#ids}", waitTime = "20s")
		public int readAllAtBarrier(String[] ids, CyclicBarrier barrier) throws Exception {
			barrier.await(20, TimeUnit.SECONDS);
			return ids.length;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AccountConfiguration {

		@Bean
		AccountService accountService() {
			return new AccountService();
		}

	}

}
