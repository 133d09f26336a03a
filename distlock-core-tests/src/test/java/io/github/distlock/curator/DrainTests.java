package io.github.distlock.curator;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.JobFiring;
import io.github.distlock.core.JobSchedule;
import io.github.distlock.core.JobSkip;
import io.github.distlock.core.LockAdmin;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LocksDrainingException;
import io.github.distlock.core.MultiLockHandle;
import io.github.distlock.core.ScheduledJob;
import io.github.distlock.core.ScheduledJobListener;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Draining an instance: new acquisitions fail at once, waiting ones fail, held ones run
 * to their end and are waited for, leaderships are handed over and not run for until the
 * drain ends, scheduled firings skip; undrain restores all of it.
 */
class DrainTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void drainRefusesEveryNewAcquisitionAtOnceNamingTheLockAndTheDrain() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		LockAdmin admin = locks.admin();
		assertThat(admin.drain(Duration.ZERO)).isTrue();
		assertThat(admin.isDraining()).isTrue();
		assertThat(admin.drainingSince()).isPresent();
		for (ClusterLock lock : List.of(locks.mutex("drained"), locks.nonReentrantMutex("drained"),
				locks.readWrite("drained").readLock(), locks.readWrite("drained").writeLock(),
				locks.semaphore("drained", 2))) {
			long start = System.nanoTime();
			assertThatExceptionOfType(LocksDrainingException.class).isThrownBy(() -> lock.acquire(WAIT))
				.withMessageContaining("Lock 'drained' cannot be acquired")
				.withMessageContaining("this instance is draining (since " + admin.drainingSince().get() + ")")
				.withMessageContaining("it takes no new locks until undrain()");
			CompletableFuture<LockHandle> async = lock.acquireAsync(WAIT);
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> async.get(5, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(LocksDrainingException.class);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
		}
		assertThatExceptionOfType(LocksDrainingException.class)
			.isThrownBy(() -> locks.multi(List.of(locks.mutex("a"), locks.mutex("b"))).acquire(WAIT))
			.withMessageContaining("draining");
		assertThat(locks.heldCount()).isZero();
		assertThat(locks.waitingCount()).isZero();
		admin.undrain();
		admin.undrain();
		assertThat(admin.isDraining()).isFalse();
		assertThat(admin.drainingSince()).isEmpty();
		try (MultiLockHandle both = locks.multi(List.of(locks.mutex("a"), locks.mutex("b"))).acquire(WAIT)) {
			assertThat(locks.heldCount()).isEqualTo(2);
		}
	}

	@Test
	void aReentryOfAHeldLockSucceedsWhileDrainingAndDrainReturnsOnceTheHoldsEnd() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		LockAdmin admin = locks.admin();
		LockHandle held = locks.mutex("held").acquire(WAIT);
		CompletableFuture<Boolean> drained = CompletableFuture.supplyAsync(() -> admin.drain(WAIT));
		await().atMost(Duration.ofSeconds(10)).until(admin::isDraining);
		try (LockHandle again = locks.mutex("held").acquire(WAIT)) {
			assertThat(again.isHeld()).isTrue();
		}
		assertThatExceptionOfType(LocksDrainingException.class).isThrownBy(() -> locks.mutex("other").acquire(WAIT));
		assertThat(drained).isNotDone();
		held.close();
		assertThat(drained.get(10, TimeUnit.SECONDS)).isTrue();
		assertThat(locks.heldCount()).isZero();
	}

	@Test
	void drainReturnsFalseWhenTheHoldsOutlastTheWait() {
		CuratorLocks locks = this.zookeeper.newNode();
		try (LockHandle held = locks.readWrite("long").writeLock().acquire(WAIT)) {
			long start = System.nanoTime();
			assertThat(locks.admin().drain(Duration.ofMillis(300))).isFalse();
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
			assertThat(held.isHeld()).isTrue();
		}
		assertThat(locks.admin().drain(Duration.ofSeconds(10))).isTrue();
	}

	@Test
	void acquisitionsWaitingWhenTheDrainBeginsFailAndAreNeverGrantedLater() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode();
		CuratorLocks drained = this.zookeeper.newNode();
		LockHandle held = holder.mutex("busy").acquire(WAIT);
		LockHandle permit = holder.semaphore("busy", 1).acquire(WAIT);
		CompletableFuture<LockHandle> mutex = drained.mutex("busy").acquireAsync(Duration.ofMillis(-1));
		CompletableFuture<LockHandle> semaphore = drained.semaphore("busy", 1).acquireAsync(WAIT);
		await().atMost(Duration.ofSeconds(10)).until(() -> drained.waitingCount() == 2);
		assertThat(drained.admin().drain(Duration.ZERO)).isTrue();
		for (CompletableFuture<LockHandle> waiting : List.of(mutex, semaphore)) {
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> waiting.get(5, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(LocksDrainingException.class)
				.withMessageContaining("'busy'");
		}
		held.close();
		permit.close();
		// The holder gets the locks again: the drained waiter's nodes are gone, and
		// nothing was granted to it.
		try (LockHandle again = holder.mutex("busy").acquire(Duration.ofSeconds(10));
				LockHandle permitAgain = holder.semaphore("busy", 1).acquire(Duration.ofSeconds(10))) {
			assertThat(drained.heldCount()).isZero();
			assertThat(drained.waitingCount()).isZero();
			assertThat(holder.inspect(io.github.distlock.core.LockPath.parse("busy")))
				.allSatisfy((queue) -> assertThat(queue.participants()).hasSize(1));
		}
	}

	@Test
	void aDrainedLeaderHandsOverAndDoesNotRunAgainUntilUndrained() throws Exception {
		CuratorLocks first = this.zookeeper.newNode();
		CuratorLocks second = this.zookeeper.newNode();
		try (CuratorLeadership leading = new CuratorLeadership(first);
				CuratorLeadership other = new CuratorLeadership(second)) {
			leading.join("group");
			leading.awaitLeadership("group").get(10, TimeUnit.SECONDS);
			other.join("group");
			assertThat(first.admin().drain(Duration.ofSeconds(10))).isTrue();
			other.awaitLeadership("group").get(10, TimeUnit.SECONDS);
			assertThat(leading.isLeader("group")).isFalse();
			assertThat(leading.groups()).containsExactly("group");
			leading.join("group");
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> leading.awaitLeadership("group").get(5, TimeUnit.SECONDS))
				.havingCause()
				.isInstanceOf(LocksDrainingException.class);
			// With the other member gone, nobody runs: the drained member has no node.
			other.leave("group").get(10, TimeUnit.SECONDS);
			await().atMost(Duration.ofSeconds(10)).until(() -> other.inspect("group").participants().isEmpty());
			assertThat(leading.isLeader("group")).isFalse();
			first.admin().undrain();
			leading.awaitLeadership("group").get(10, TimeUnit.SECONDS);
			assertThat(leading.isLeader("group")).isTrue();
		}
	}

	@Test
	void aDrainedLeaderHandsOverToARawLeaderLatch() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		try (CuratorLeadership leadership = new CuratorLeadership(locks);
				LeaderLatch latch = new LeaderLatch(this.zookeeper.newClient(), "/leader/raw", "raw")) {
			leadership.join("raw");
			leadership.awaitLeadership("raw").get(10, TimeUnit.SECONDS);
			latch.start();
			locks.admin().drain(Duration.ofSeconds(10));
			assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(leadership.isLeader("raw")).isFalse();
		}
	}

	@Test
	void aScheduledFiringWhileDrainingIsSkippedDraining() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		CuratorScheduledJobs jobs = new CuratorScheduledJobs(locks, java.time.Clock.systemUTC(), "drained");
		List<JobSkip> skips = new CopyOnWriteArrayList<>();
		jobs.addListener(new ScheduledJobListener() {

			@Override
			public void skipped(String job, Instant slot, JobSkip reason) {
				skips.add(reason);
			}

		});
		ScheduledJob job = new ScheduledJob("hourly", hourly());
		jobs.register(job);
		Instant slot = Instant.parse("2030-01-01T00:00:00Z");
		locks.admin().drain(Duration.ZERO);
		JobFiring skipped = jobs.fire(job, slot, () -> {
			throw new AssertionError("ran while draining");
		});
		assertThat(skipped.skipped()).isEqualTo(JobSkip.DRAINING);
		assertThat(skips).containsExactly(JobSkip.DRAINING);
		locks.admin().undrain();
		assertThat(jobs.fire(job, slot, () -> null).ran()).isTrue();
	}

	static JobSchedule hourly() {
		return new JobSchedule() {

			@Override
			public Instant slotAt(Instant time) {
				return time.truncatedTo(ChronoUnit.HOURS);
			}

			@Override
			public Instant slotAfter(Instant slot) {
				return slot.plus(1, ChronoUnit.HOURS);
			}

			@Override
			public String description() {
				return "hourly";
			}

		};
	}

}
