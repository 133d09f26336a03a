package io.github.distlock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.curator.CuratorLocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The ZooKeeper server restarts while one node holds a lock and two others wait for it:
 * the holder learns its lock is lost, the waiters eventually acquire one after the other,
 * and at no time do two of them believe they hold it.
 */
class ServerRestartFaultTest {

	/**
	 * A thread per task: tasks that block must run at the same time, and from JDK 25 on
	 * CompletableFuture's default executor is the common pool even when its parallelism
	 * is 1 (two cores), which runs them one after the other.
	 */
	private static final Executor OWN_THREADS = (task) -> new Thread(task).start();

	private TestingServer server;

	private FaultClients clients;

	@BeforeEach
	void start() throws Exception {
		this.server = new TestingServer(FaultClients.spec(-1), true);
		this.clients = new FaultClients();
	}

	@AfterEach
	void stop() throws Exception {
		this.clients.close();
		this.server.close();
	}

	@Test
	void waitersEventuallyAcquireAndNeverTwoHolders() throws Exception {
		CuratorLocks holderNode = this.clients.locks(this.server.getConnectString());
		List<CuratorLocks> waiterNodes = List.of(this.clients.locks(this.server.getConnectString()),
				this.clients.locks(this.server.getConnectString()));
		HolderProbe probe = new HolderProbe(this.clients.start(this.server.getConnectString()), "/mutex/restart/x");
		AtomicInteger retries = new AtomicInteger();
		LockHandle held = holderNode.mutex("restart/x").acquire(Duration.ofSeconds(5));
		probe.enter(held);
		long[] acquiredAt = new long[waiterNodes.size()];
		List<CompletableFuture<Long>> waiters = new ArrayList<>();
		for (int i = 0; i < waiterNodes.size(); i++) {
			CuratorLocks node = waiterNodes.get(i);
			int index = i;
			waiters.add(CompletableFuture.supplyAsync(() -> {
				long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
				while (true) {
					try (LockHandle handle = node.mutex("restart/x").acquire(Duration.ofSeconds(20))) {
						acquiredAt[index] = System.nanoTime();
						probe.enter(handle);
						long token = handle.fencingToken();
						probe.exit(handle);
						return token;
					}
					catch (DistributedLockException ex) {
						// Connection lost while waiting: Curator gave up; wait again.
						retries.incrementAndGet();
						if (System.nanoTime() > deadline) {
							throw ex;
						}
					}
				}
			}, OWN_THREADS));
		}
		await().atMost(Duration.ofSeconds(10))
			.until(() -> holderNode.client().getChildren().forPath("/mutex/restart/x").size() == 3);

		this.server.stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> held.state() == LockState.LOST);
		long restarted = System.nanoTime();
		this.server.restart();
		// The holder, told its lock is lost, stops and releases.
		probe.exit(held);
		held.close();

		List<Long> tokens = new ArrayList<>();
		for (CompletableFuture<Long> waiter : waiters) {
			tokens.add(waiter.get(45, TimeUnit.SECONDS));
		}
		long last = Math.max(acquiredAt[0], acquiredAt[1]);
		assertThat(probe.doubleGrants()).as("lock granted twice: %s", probe.details()).isZero();
		// The sessions outlive the restart, so no holder is left believing in a lost
		// hold.
		assertThat(probe.lateNotices()).as("holders unaware of a lost hold: %s", probe.details()).isZero();
		assertThat(tokens).doesNotHaveDuplicates()
			.allSatisfy((token) -> assertThat(token).isGreaterThan(held.fencingToken()));
		System.out.println("[measure] server restart: both waiters acquired within "
				+ TimeUnit.NANOSECONDS.toMillis(last - restarted) + " ms of the restart (" + retries.get()
				+ " waits abandoned by Curator and retried), 0 overlapping holders");
	}

}
