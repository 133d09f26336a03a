package io.github.distlock.curator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.Election;
import io.github.distlock.core.JobOutcome;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockInUse;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.RecordedJob;
import io.github.distlock.core.ScheduledJob;
import io.github.distlock.core.WaitForGraph;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The administration view ({@link CuratorLocks#admin()}) reads the whole lock root as
 * ZooKeeper has it: locks held and awaited by other instances and by raw Curator clients,
 * elections with raw {@code LeaderLatch} members, and the wait-for graph whose cycle is a
 * deadlock between two instances that take two locks in opposite orders.
 */
class LockAdminTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void locksListsEveryPathInUseOfEveryProtocolWithItsHoldersAndWaitersWhoeverMadeThem() throws Exception {
		CuratorLocks admin = this.zookeeper.newNode();
		CuratorLocks other = this.zookeeper.newNode();
		CuratorFramework raw = this.zookeeper.newClient();
		InterProcessMutex rawMutex = new InterProcessMutex(raw, "/mutex/orders/42");
		rawMutex.acquire();
		CompletableFuture<LockHandle> waiting = other.mutex(LockPath.of("orders", "42"))
			.acquireAsync(Duration.ofSeconds(30));
		LockHandle invoices = other.mutex("invoices").acquire(Duration.ofSeconds(5));
		LockHandle reader = other.readWrite("prices/eu").readLock().acquire(Duration.ofSeconds(5));
		LockHandle lease = other.semaphore("reports", 2).acquire(Duration.ofSeconds(5));
		await().atMost(WAIT).until(() -> admin.admin().locks().size() == 4);
		List<LockInUse> locks = admin.admin().locks();
		assertThat(locks).extracting((lock) -> lock.protocol() + " " + lock.path())
			.containsExactly("MUTEX invoices", "MUTEX orders/42", "READ_WRITE prices/eu", "SEMAPHORE reports");
		LockInUse orders42 = locks.get(1);
		assertThat(orders42.holders()).singleElement().satisfies((holder) -> assertThat(holder.identity()).isEmpty());
		assertThat(orders42.waiters()).singleElement().satisfies((waiter) -> {
			assertThat(waiter.identity()).containsKeys("app", "host", "pid", "thread", "since");
			assertThat(waiter.session()).isEqualTo(other.client().getZookeeperClient().getZooKeeper().getSessionId());
		});
		assertThat(locks.get(0).holders()).singleElement()
			.satisfies((holder) -> assertThat(holder.fencingToken()).isEqualTo(invoices.fencingToken()));
		assertThat(locks.get(2).holders()).extracting(LockParticipant::side).containsExactly("read");
		assertThat(locks.get(3).holders()).extracting(LockParticipant::side).containsExactly("lease");
		rawMutex.release();
		waiting.get(20, TimeUnit.SECONDS).close();
		invoices.close();
		reader.close();
		lease.close();
		await().atMost(WAIT).until(() -> admin.admin().locks().isEmpty());
	}

	@Test
	void leadersListsEachElectionWithItsLeaderFirstRawLatchesIncluded() throws Exception {
		CuratorLeadership leadership = this.zookeeper.nodes().register(new CuratorLeadership(this.zookeeper.newNode()));
		long epoch = leadership.awaitLeadership("billing").get(20, TimeUnit.SECONDS);
		LeaderLatch latch = new LeaderLatch(this.zookeeper.newClient(), "/leader/billing", "raw-member");
		latch.start();
		LeaderLatch alone = new LeaderLatch(this.zookeeper.newClient(), "/leader/reports/daily", "raw-alone");
		alone.start();
		assertThat(alone.await(20, TimeUnit.SECONDS)).isTrue();
		CuratorLocks admin = this.zookeeper.newNode();
		await().atMost(WAIT)
			.until(() -> admin.admin().leaders().stream().mapToInt((election) -> election.members().size()).sum() == 3);
		List<Election> elections = admin.admin().leaders();
		assertThat(elections).extracting(Election::group).containsExactly("billing", "reports/daily");
		assertThat(elections.get(0).epoch()).isEqualTo(epoch);
		assertThat(elections.get(0).leader())
			.hasValueSatisfying((leader) -> assertThat(leader.memberId()).isEqualTo(leadership.memberId()));
		assertThat(elections.get(0).members().get(1).describe()).startsWith("raw-member (session 0x");
		assertThat(elections.get(1).leader())
			.hasValueSatisfying((leader) -> assertThat(leader.describe()).startsWith("raw-alone"));
		latch.close();
		alone.close();
	}

	@Test
	void jobsListsEveryJobWithARecordClusterWideWithItsScheduleLastRunAndNextSlot() throws Exception {
		CuratorLocks admin = this.zookeeper.newNode();
		CuratorLocks runner = this.zookeeper.newNode();
		Clock clock = Clock.fixed(Instant.parse("2030-01-01T00:30:00Z"), ZoneOffset.UTC);
		CuratorScheduledJobs jobs = new CuratorScheduledJobs(runner, clock, "runner");
		assertThat(runner.client().blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
		ScheduledJob report = new ScheduledJob("report", DrainTests.hourly());
		ScheduledJob restock = new ScheduledJob("restock/eu", DrainTests.hourly());
		assertThat(admin.admin().jobs()).isEmpty();
		jobs.register(report);
		jobs.register(restock);
		// A node under the records that is not one is left out, not an error.
		admin.client().create().creatingParentsIfNeeded().forPath("/jobs/bogus", "not a record".getBytes());
		// Registered only: the record has the schedule and the next slot.
		await().atMost(WAIT)
			.untilAsserted(() -> assertThat(admin.admin().jobs()).extracting(RecordedJob::name)
				.containsExactly("report", "restock/eu"));
		assertThat(admin.admin().jobs()).allSatisfy((job) -> {
			assertThat(job.schedule()).isEqualTo("hourly");
			assertThat(job.paused()).isFalse();
			assertThat(job.lastSlot()).isNull();
			assertThat(job.lastRun()).isEmpty();
			assertThat(job.nextSlot()).isEqualTo(Instant.parse("2030-01-01T01:00:00Z"));
		});
		assertThat(jobs.fire(report, clock.instant(), () -> "done").ran()).isTrue();
		jobs.pause("restock/eu");
		List<RecordedJob> recorded = admin.admin().jobs();
		RecordedJob ran = recorded.get(0);
		assertThat(ran.lastSlot()).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
		assertThat(ran.nextSlot()).isEqualTo(Instant.parse("2030-01-01T01:00:00Z"));
		assertThat(ran.lastRun()).hasValueSatisfying((run) -> {
			assertThat(run.node()).isEqualTo("runner");
			assertThat(run.outcome()).isEqualTo(JobOutcome.SUCCEEDED);
			assertThat(run.slot()).isEqualTo(ran.lastSlot());
		});
		assertThat(ran.paused()).isFalse();
		assertThat(recorded.get(1).paused()).isTrue();
		// A registration again (another instance, a restart) leaves the record as it is.
		new CuratorScheduledJobs(admin, clock, "admin").register(report);
		assertThat(admin.admin().jobs().get(0).runs()).hasSize(1);
	}

	@Test
	void twoInstancesTakingTwoLocksInOppositeOrdersShowACycleInTheWaitForGraph() throws Exception {
		CuratorLocks first = this.zookeeper.newNode();
		CuratorLocks second = this.zookeeper.newNode();
		CuratorLocks admin = this.zookeeper.newNode();
		ExecutorService threads = Executors.newFixedThreadPool(2);
		CountDownLatch bothHold = new CountDownLatch(2);
		try {
			Future<?> one = threads.submit(() -> takeBoth(first, "accounts/a", "accounts/b", bothHold));
			Future<?> two = threads.submit(() -> takeBoth(second, "accounts/b", "accounts/a", bothHold));
			await().atMost(WAIT).until(() -> admin.admin().waitsFor().hasDeadlock());
			WaitForGraph graph = admin.admin().waitsFor();
			assertThat(graph.edges()).hasSize(2);
			assertThat(graph.cycles()).singleElement().satisfies((cycle) -> {
				assertThat(cycle).hasSize(2);
				assertThat(cycle.get(0).holder()).isEqualTo(cycle.get(1).waiter());
				assertThat(cycle.get(1).holder()).isEqualTo(cycle.get(0).waiter());
				assertThat(cycle).extracting((edge) -> edge.path().value())
					.containsExactlyInAnyOrder("accounts/a", "accounts/b");
				assertThat(cycle).extracting((edge) -> edge.waiter().session())
					.containsExactlyInAnyOrder(sessionOf(first), sessionOf(second));
			});
			// Closing one instance's locks ends its wait: it releases what it holds and
			// the other goes on; the cycle is gone.
			first.close();
			assertThatExceptionOfType(java.util.concurrent.ExecutionException.class)
				.isThrownBy(() -> one.get(20, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockAcquisitionException.class);
			two.get(20, TimeUnit.SECONDS);
			assertThat(admin.admin().waitsFor().hasDeadlock()).isFalse();
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void waitersOfOneInstanceBehindAHolderOfAnotherAreEdgesButNoCycle() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode();
		CuratorLocks waiter = this.zookeeper.newNode();
		try (LockHandle held = holder.mutex("stock").acquire(Duration.ofSeconds(5))) {
			CompletableFuture<LockHandle> waiting = waiter.mutex("stock").acquireAsync(Duration.ofSeconds(30));
			CompletableFuture<LockHandle> reading = waiter.readWrite("stock")
				.readLock()
				.acquireAsync(Duration.ofSeconds(30));
			reading.get(20, TimeUnit.SECONDS).close();
			await().atMost(WAIT).until(() -> holder.admin().waitsFor().edges().size() == 1);
			WaitForGraph graph = holder.admin().waitsFor();
			assertThat(graph.edges()).singleElement().satisfies((edge) -> {
				assertThat(edge.protocol()).isEqualTo(LockProtocol.MUTEX);
				assertThat(edge.holder().session()).isEqualTo(sessionOf(holder));
				assertThat(edge.waiter().session()).isEqualTo(sessionOf(waiter));
				assertThat(edge.holderNode().fencingToken()).isEqualTo(held.fencingToken());
			});
			assertThat(graph.hasDeadlock()).isFalse();
			held.close();
			waiting.get(20, TimeUnit.SECONDS).close();
		}
	}

	private static Object takeBoth(CuratorLocks locks, String firstPath, String secondPath, CountDownLatch bothHold)
			throws Exception {
		try (LockHandle held = locks.mutex(firstPath).acquire(Duration.ofSeconds(5))) {
			bothHold.countDown();
			bothHold.await(20, TimeUnit.SECONDS);
			try (LockHandle next = locks.mutex(secondPath).acquire(Duration.ofSeconds(60))) {
				return next;
			}
		}
	}

	private static long sessionOf(CuratorLocks locks) throws Exception {
		return locks.client().getZookeeperClient().getZooKeeper().getSessionId();
	}

}
