package io.github.distlock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.LockShape;
import io.github.distlock.testsupport.SectionProbe;
import io.github.distlock.testsupport.ServerWatches;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The ZooKeeper server restarts while, for every kind of lock, one node holds it and two
 * others wait for it: the holders learn their locks are lost, the waiters acquire one
 * after the other, at no time do two of them hold a lock, and afterwards no lock node and
 * no watch is left.
 */
class ServerRestartFaultTests {

	static {
		ServerWatches.enable();
	}

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	private final ExecutorService callers = Executors.newCachedThreadPool();

	@AfterEach
	void stopCallers() {
		this.callers.shutdownNow();
	}

	@Test
	void waitersOfEveryKindAcquireAfterARestartAndNeverTwoHolders() throws Exception {
		CuratorLocks holderNode = this.zookeeper.newNode();
		List<CuratorLocks> waiterNodes = List.of(this.zookeeper.newNode(), this.zookeeper.newNode());
		Map<LockShape, SectionProbe> probes = new EnumMap<>(LockShape.class);
		Map<LockShape, LockHandle> held = new EnumMap<>(LockShape.class);
		Map<LockShape, List<CompletableFuture<Long>>> waiters = new EnumMap<>(LockShape.class);
		AtomicInteger retries = new AtomicInteger();
		long[] lastAcquired = new long[1];
		for (LockShape shape : LockShape.values()) {
			String path = path(shape);
			SectionProbe probe = new SectionProbe(this.zookeeper.newClient(), shape.holdersNode(path));
			probes.put(shape, probe);
			LockHandle handle = shape.exclusive(holderNode, path).acquire(Duration.ofSeconds(5));
			probe.enter(handle);
			held.put(shape, handle);
			List<CompletableFuture<Long>> futures = new ArrayList<>();
			for (CuratorLocks node : waiterNodes) {
				futures.add(CompletableFuture.supplyAsync(() -> {
					long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
					while (true) {
						try (LockHandle waited = shape.exclusive(node, path).acquire(Duration.ofSeconds(20))) {
							synchronized (lastAcquired) {
								lastAcquired[0] = Math.max(lastAcquired[0], System.nanoTime());
							}
							probe.enter(waited);
							long token = waited.fencingToken();
							probe.exit(waited);
							return token;
						}
						catch (DistributedLockException ex) {
							retries.incrementAndGet();
							if (System.nanoTime() > deadline) {
								throw ex;
							}
						}
					}
				}, this.callers));
			}
			waiters.put(shape, futures);
		}
		for (LockShape shape : LockShape.values()) {
			// Semaphore waiters queue for the guard, the others for the lock itself.
			String queue = (shape == LockShape.SEMAPHORE) ? "/semaphore/" + path(shape) + "/locks"
					: shape.holdersNode(path(shape));
			int expected = (shape == LockShape.SEMAPHORE) ? 1 : 3;
			await().atMost(Duration.ofSeconds(10))
				.until(() -> Faults.children(holderNode.client(), queue).size() >= expected);
		}

		this.zookeeper.server().stop();
		for (LockHandle handle : held.values()) {
			await().atMost(Duration.ofSeconds(10)).until(() -> handle.state() == LockState.LOST);
		}
		long restarted = System.nanoTime();
		this.zookeeper.server().restart();
		// The holders, told their locks are lost, stop and release.
		held.forEach((shape, handle) -> {
			probes.get(shape).exit(handle);
			handle.close();
		});

		StringBuilder report = new StringBuilder();
		for (LockShape shape : LockShape.values()) {
			List<Long> tokens = new ArrayList<>();
			for (CompletableFuture<Long> waiter : waiters.get(shape)) {
				tokens.add(waiter.get(45, TimeUnit.SECONDS));
			}
			SectionProbe probe = probes.get(shape);
			assertThat(probe.doubleGrants()).as("%s granted twice: %s", shape, probe.details()).isZero();
			// The sessions outlive the restart, so no holder is left believing in a
			// lost hold.
			assertThat(probe.lateNotices()).as("%s holders unaware of a lost hold: %s", shape, probe.details())
				.isZero();
			assertThat(tokens).as(shape.name())
				.doesNotHaveDuplicates()
				.allSatisfy((token) -> assertThat(token).isGreaterThan(held.get(shape).fencingToken()));
			report.append(shape).append(" ok; ");
		}
		for (LockShape shape : LockShape.values()) {
			for (String lockNode : shape.lockNodes(path(shape))) {
				await().atMost(Duration.ofSeconds(15))
					.untilAsserted(() -> assertThat(Faults.children(holderNode.client(), lockNode)).isEmpty());
			}
		}
		await().atMost(Duration.ofSeconds(15))
			.untilAsserted(
					() -> assertThat(ServerWatches.watchedLockPaths(this.zookeeper.server().getPort())).isEmpty());
		System.out.println("[measure] server restart, every kind (" + report + "): all waiters acquired within "
				+ TimeUnit.NANOSECONDS.toMillis(lastAcquired[0] - restarted) + " ms of the restart (" + retries.get()
				+ " waits retried), 0 overlapping holders, 0 nodes and 0 watches left");
	}

	private static String path(LockShape shape) {
		return "restart/" + shape.name().toLowerCase();
	}

}
