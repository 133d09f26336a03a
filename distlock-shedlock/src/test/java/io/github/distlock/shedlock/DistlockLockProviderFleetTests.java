package io.github.distlock.shedlock;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.test.support.FuzzTester;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.LockState;
import io.github.distlock.test.DistlockNode;
import io.github.distlock.test.DistlockZooKeeperExtension;
import io.github.distlock.test.TestZooKeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link DistlockLockProvider} among other instances: providers on other nodes, distlock
 * holders of the same path (a fleet that moves from {@code @SchedulerLock} to
 * {@code @DistributedLock("shedlock/<name>")}), raw Curator mutexes, and holders that
 * die. Each node is a client with a session of its own on one real ZooKeeper server.
 */
class DistlockLockProviderFleetTests {

	private static final Duration ONE_HOUR = Duration.ofHours(1);

	@RegisterExtension
	static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension().shared();

	private TestZooKeeper server;

	private DistlockNode first;

	private DistlockNode second;

	private DistlockLockProvider firstProvider;

	private DistlockLockProvider secondProvider;

	@BeforeEach
	void startNodes() {
		this.server = zookeeper.get();
		this.first = this.server.newNode();
		this.second = this.server.newNode();
		this.firstProvider = new DistlockLockProvider(this.first.getLocks());
		this.secondProvider = new DistlockLockProvider(this.second.getLocks());
	}

	@Test
	void providerAndDistlockMutexAtShedlockPathExcludeEachOther() {
		SimpleLock shedLock = this.firstProvider.lock(config("report", ONE_HOUR)).orElseThrow();
		assertThat(this.second.getLocks().mutex("shedlock/report").tryAcquire(Duration.ZERO)).isEmpty();
		shedLock.unlock();
		LockHandle distlock = this.second.getLocks().mutex("shedlock/report").acquire(Duration.ZERO);
		assertThat(this.firstProvider.lock(config("report", ONE_HOUR))).isEmpty();
		assertThat(this.secondProvider.lock(config("report", ONE_HOUR))).as("a provider on the holder's own node")
			.isEmpty();
		// close() only sends the delete; another session sees the lock free only once
		// the delete is confirmed, which closeAsync() waits for.
		distlock.closeAsync().join();
		this.firstProvider.lock(config("report", ONE_HOUR)).orElseThrow().unlock();
	}

	@Test
	void providersOnTwoNodesExcludeEachOther() {
		SimpleLock held = this.firstProvider.lock(config("report", ONE_HOUR)).orElseThrow();
		assertThat(this.secondProvider.lock(config("report", ONE_HOUR))).isEmpty();
		held.unlock();
		this.secondProvider.lock(config("report", ONE_HOUR)).orElseThrow().unlock();
	}

	@Test
	void rawCuratorMutexOnTheQueueNodeExcludesTheProvider() throws Exception {
		InterProcessMutex curator = new InterProcessMutex(this.second.getClient(), LockNodes.queueOf("report"));
		assertThat(curator.acquire(5, TimeUnit.SECONDS)).isTrue();
		try {
			assertThat(this.firstProvider.lock(config("report", ONE_HOUR))).isEmpty();
		}
		finally {
			curator.release();
		}
		SimpleLock held = this.firstProvider.lock(config("report", ONE_HOUR)).orElseThrow();
		assertThat(curator.acquire(0, TimeUnit.SECONDS)).isFalse();
		held.unlock();
	}

	@Test
	void nameThatIsAZooKeeperNodeNameIsTheSegmentAsItIsForDistlockAndRawCurator() throws Exception {
		String name = "report:daily";
		assertThat(DistlockLockProvider.pathOf(name).value()).isEqualTo("shedlock/report:daily");
		SimpleLock held = this.firstProvider.lock(config(name, ONE_HOUR)).orElseThrow();
		assertThat(this.second.getLocks().mutex("shedlock/report:daily").tryAcquire(Duration.ZERO)).isEmpty();
		InterProcessMutex curator = new InterProcessMutex(this.second.getClient(), "/mutex/shedlock/report:daily");
		assertThat(curator.acquire(0, TimeUnit.SECONDS)).isFalse();
		held.unlock();
		assertThat(curator.acquire(5, TimeUnit.SECONDS)).isTrue();
		try {
			assertThat(this.firstProvider.lock(config(name, ONE_HOUR))).isEmpty();
		}
		finally {
			curator.release();
		}
		LockHandle distlock = this.second.getLocks().mutex("shedlock/report:daily").acquire(Duration.ZERO);
		assertThat(this.firstProvider.lock(config(name, ONE_HOUR))).isEmpty();
		distlock.closeAsync().join();
		this.firstProvider.lock(config(name, ONE_HOUR)).orElseThrow().unlock();
	}

	@Test
	void nameOfOtherCharactersIsOneEscapedSegmentUnderShedlock() {
		String name = "reports/daily run";
		assertThat(DistlockLockProvider.pathOf(name).value()).isEqualTo("shedlock/reports%2Fdaily run");
		SimpleLock held = this.firstProvider.lock(config(name, ONE_HOUR)).orElseThrow();
		assertThat(this.second.getLocks().mutex(LockPath.of("shedlock", name)).tryAcquire(Duration.ZERO)).isEmpty();
		assertThat(this.second.getLocks().mutex("shedlock/reports").tryAcquire(Duration.ZERO))
			.as("the name's slash makes no parent lock")
			.hasValueSatisfying(LockHandle::close);
		held.unlock();
	}

	@Test
	void unlockReturnsOnceTheReleaseIsVisibleToOtherSessions() {
		for (int i = 0; i < 20; i++) {
			SimpleLock held = this.firstProvider.lock(config("report", ONE_HOUR)).orElseThrow();
			assertThat(LockNodes.of(this.second.getClient(), "report")).hasSize(1);
			held.unlock();
			assertThat(LockNodes.of(this.second.getClient(), "report")).as("lock nodes after unlock %d", i).isEmpty();
		}
	}

	@Test
	void lockAtLeastForKeepsTheLockFromOtherNodesAfterUnlock() {
		Duration lockAtLeastFor = Duration.ofSeconds(1);
		Instant beforeLock = Instant.now();
		SimpleLock held = this.firstProvider
			.lock(new LockConfiguration(Instant.now(), "report", ONE_HOUR, lockAtLeastFor))
			.orElseThrow();
		held.unlock();
		assertThat(this.secondProvider.lock(config("report", ONE_HOUR))).isEmpty();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.secondProvider.lock(config("report", ONE_HOUR)), Optional::isPresent)
			.orElseThrow()
			.unlock();
		assertThat(Duration.between(beforeLock, Instant.now())).isGreaterThanOrEqualTo(lockAtLeastFor);
	}

	@Test
	void lockAtLeastForEndsAtOnceWhenAnOperatorAsksTheHolderToRelease() {
		SimpleLock held = this.firstProvider.lock(new LockConfiguration(Instant.now(), "report", ONE_HOUR, ONE_HOUR))
			.orElseThrow();
		held.unlock();
		assertThat(this.secondProvider.lock(config("report", ONE_HOUR))).isEmpty();
		assertThat(this.second.getLocks().admin().requestRelease(LockPath.parse("shedlock/report"), LockProtocol.MUTEX))
			.hasSize(1);
		await().atMost(Duration.ofSeconds(20))
			.until(() -> this.secondProvider.lock(config("report", ONE_HOUR)), Optional::isPresent)
			.orElseThrow()
			.unlock();
	}

	@Test
	void holderWhoseConnectionDiesLosesTheLockWithinTheSessionTimeoutNotAfterLockAtMostFor() {
		SimpleLock held = this.firstProvider.lock(config("report", ONE_HOUR)).orElseThrow();
		Instant cut = Instant.now();
		// As a killed process: its connection closes, no request ends its session.
		this.server.cutOff(this.first);
		assertThat(this.secondProvider.lock(config("report", ONE_HOUR))).as("while the session lives").isEmpty();
		SimpleLock taken = await().atMost(this.server.getSessionTimeout().plusSeconds(1))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> this.secondProvider.lock(config("report", ONE_HOUR)), Optional::isPresent)
			.orElseThrow();
		System.out.printf(
				"Lock of a cut-off holder taken by another node %d ms after the cut (session timeout %d ms)%n",
				Duration.between(cut, Instant.now()).toMillis(), this.server.getSessionTimeout().toMillis());
		taken.unlock();
		this.server.reconnect(this.first);
		held.unlock();
	}

	@Test
	void holderWhoseSessionIsEndedOnTheServerLosesTheLockAtOnce() {
		SimpleLock held = this.firstProvider.lock(config("report", ONE_HOUR)).orElseThrow();
		assertThat(this.secondProvider.lock(config("report", ONE_HOUR))).isEmpty();
		this.server.expireSession(this.first);
		this.secondProvider.lock(config("report", ONE_HOUR)).orElseThrow().unlock();
		assertThat(this.first.getLocks().heldLocks()).extracting((lock) -> lock.state())
			.containsExactly(LockState.LOST);
		held.unlock();
		assertThat(this.first.getLocks().heldLocks()).isEmpty();
	}

	@Test
	void lockAtMostForReleasesALiveHolder() {
		this.firstProvider.lock(config("report", Duration.ofMillis(300))).orElseThrow();
		assertThat(this.secondProvider.lock(config("report", ONE_HOUR))).isEmpty();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.secondProvider.lock(config("report", ONE_HOUR)), Optional::isPresent)
			.orElseThrow()
			.unlock();
		assertThat(this.first.getLocks().heldLocks()).isEmpty();
	}

	@Test
	void extendedLockOutlivesItsFirstLockAtMostFor() {
		SimpleLock held = this.firstProvider.lock(config("report", Duration.ofMillis(500))).orElseThrow();
		SimpleLock extended = held.extend(ONE_HOUR, Duration.ZERO).orElseThrow();
		Instant firstDeadline = Instant.now().plusMillis(500);
		await().atMost(Duration.ofSeconds(10)).until(() -> Instant.now().isAfter(firstDeadline.plusMillis(200)));
		assertThat(this.secondProvider.lock(config("report", ONE_HOUR))).isEmpty();
		extended.unlock();
		this.secondProvider.lock(config("report", ONE_HOUR)).orElseThrow().unlock();
	}

	@Test
	void lockWhoseSessionEndedCannotBeExtended() {
		SimpleLock held = this.firstProvider.lock(config("report", ONE_HOUR)).orElseThrow();
		this.server.expireSession(this.first);
		assertThat(held.extend(ONE_HOUR, Duration.ZERO)).isEmpty();
	}

	@Test
	void shedLocksFuzzTestPassesWithItsThreadsSpreadOverTwoNodes() throws Exception {
		List<DistlockLockProvider> providers = List.of(this.firstProvider, this.secondProvider);
		AtomicInteger calls = new AtomicInteger();
		LockProvider alternating = (configuration) -> providers.get(calls.getAndIncrement() % 2).lock(configuration);
		// ShedLock's short run (its default is ten times longer): each thread runs its
		// jobs ten times, each run a read and a later write of a shared counter.
		new FuzzTester(alternating, Duration.ofMillis(1), Duration.ofMinutes(5), FuzzTester.SHORT_ITERATION)
			.doFuzzTest();
		assertThat(calls.get()).isGreaterThan(2 * FuzzTester.SHORT_ITERATION);
	}

	private static LockConfiguration config(String name, Duration lockAtMostFor) {
		return new LockConfiguration(Instant.now(), name, lockAtMostFor, Duration.ZERO);
	}

}
