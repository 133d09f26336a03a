package io.github.distlock.curator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.JobFiring;
import io.github.distlock.core.JobSkip;
import io.github.distlock.core.ScheduledJob;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A firing whose record is read while its locks do not see their connection (it came
 * back, and the record was read, before they heard of it): the job's lock is free in
 * ZooKeeper, so the firing waits for the locks' connection instead of skipping as if
 * another run held the lock, and says so when it does not come. The records are read
 * through a second client, connected throughout, and the locks' client is cut off behind
 * a relay: the firing then stands where a firing stands in that moment.
 */
class JobFiringConnectionTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final ScheduledJob job = new ScheduledJob("report", DrainTests.hourly());

	private final Instant slot = Instant.parse("2030-01-01T00:00:00Z");

	@Test
	void aFiringWaitsForItsLocksToSeeTheConnectionWhenTheLockIsFree() throws Exception {
		TcpRelay relay = this.zookeeper.nodes().register(new TcpRelay(this.zookeeper.server().getPort()));
		CuratorLocks locks = cutOff(relay);
		CuratorScheduledJobs jobs = new CuratorScheduledJobs(locks, this.zookeeper.newClient(), Clock.systemUTC(),
				"first");
		AtomicInteger runs = new AtomicInteger();
		CompletableFuture<JobFiring> firing = CompletableFuture
			.supplyAsync(() -> fire(jobs, () -> runs.incrementAndGet()));
		// The try without waiting failed, and the firing waits for the lock.
		await().atMost(Duration.ofSeconds(10)).until(() -> locks.waitingCount() == 1);
		relay.restore();
		assertThat(firing).succeedsWithin(Duration.ofSeconds(20))
			.satisfies((fired) -> assertThat(fired.ran()).isTrue());
		assertThat(runs).hasValue(1);
	}

	@Test
	void aFiringWhoseLocksStayDisconnectedSkipsDisconnectedNotLocked() throws Exception {
		TcpRelay relay = this.zookeeper.nodes().register(new TcpRelay(this.zookeeper.server().getPort()));
		CuratorLocks locks = cutOff(relay);
		CuratorScheduledJobs jobs = new CuratorScheduledJobs(locks, this.zookeeper.newClient(), Clock.systemUTC(),
				"first");
		JobFiring fired = fire(jobs, () -> {
			throw new AssertionError("ran without its lock");
		});
		assertThat(fired.skipped()).isEqualTo(JobSkip.DISCONNECTED);
		assertThat(jobs.lastRun("report")).isEmpty();
	}

	@Test
	void aFiringWhileAnotherInstanceHoldsTheLockSkipsLockedAtOnce() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		CuratorLocks other = this.zookeeper.newNode();
		CuratorScheduledJobs jobs = new CuratorScheduledJobs(locks, Clock.systemUTC(), "first");
		try (var held = other.nonReentrantMutex(this.job.lockPath()).acquire(Duration.ofSeconds(10))) {
			assertThat(fire(jobs, () -> null).skipped()).isEqualTo(JobSkip.LOCKED);
		}
	}

	/** Locks whose client is connected once, then cut off. */
	private CuratorLocks cutOff(TcpRelay relay) throws Exception {
		CuratorFramework client = RelayedClients.start(this.zookeeper, relay, new RetryNTimes(50, 200));
		CuratorLocks locks = this.zookeeper.nodes().register(this.zookeeper.options().createLocks(client));
		locks.mutex("warm-up").acquire(Duration.ofSeconds(10)).close();
		relay.cut();
		await().atMost(Duration.ofSeconds(10)).until(() -> !client.getZookeeperClient().isConnected());
		return locks;
	}

	private JobFiring fire(CuratorScheduledJobs jobs, Callable<?> body) {
		try {
			return jobs.fire(this.job, this.slot, body);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
