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

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.LockShape;
import io.github.distlock.testsupport.ServerWatches;
import io.github.distlock.testsupport.ZooKeeperEnsemble;
import io.github.distlock.testsupport.ZooKeeperNodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A three-server ensemble, every kind of lock: locking goes on when one server dies; with
 * the quorum lost, acquisitions (new ones and ones already waiting in ZooKeeper) fail
 * within their wait time + 150 ms with a clear error; once the quorum is back, locking
 * works and no lock node or watch is left behind.
 */
class QuorumLossFaultTests {

	/** How late an acquisition may give up after its wait time. */
	private static final long OVERRUN_BOUND_MILLIS = 150;

	private ZooKeeperEnsemble servers;

	private TestingCluster cluster;

	private final ExecutorService callers = Executors.newCachedThreadPool();

	private ZooKeeperNodes nodes;

	@BeforeEach
	void start() throws Exception {
		ServerWatches.enable();
		this.servers = Faults.shortSessionServers(3);
		this.cluster = this.servers.cluster();
		this.nodes = new ZooKeeperNodes(Faults.NODES);
	}

	@AfterEach
	void stop() throws Exception {
		this.callers.shutdownNow();
		this.nodes.closeQuietly();
		this.servers.close();
	}

	@Test
	void oneServerLostLockingGoesOnQuorumLostDeadlinesHoldQuorumBackNothingLeftBehind() throws Exception {
		CuratorLocks a = this.nodes.node(this.cluster.getConnectString());
		CuratorLocks b = this.nodes.node(this.cluster.getConnectString());
		Map<LockShape, Long> first = new EnumMap<>(LockShape.class);
		for (LockShape shape : LockShape.values()) {
			try (LockHandle handle = shape.exclusive(a, path(shape, "x")).acquire(Duration.ofSeconds(5))) {
				first.put(shape, handle.fencingToken());
			}
		}

		// One server down (the one a talks to): a moves to another, locking goes on.
		InstanceSpec firstKilled = this.cluster.findConnectionInstance(a.client().getZookeeperClient().getZooKeeper());
		this.cluster.killServer(firstKilled);
		for (LockShape shape : LockShape.values()) {
			long second;
			try (LockHandle handle = shape.exclusive(a, path(shape, "x")).acquire(Duration.ofSeconds(10))) {
				second = handle.fencingToken();
			}
			try (LockHandle handle = shape.exclusive(b, path(shape, "x")).acquire(Duration.ofSeconds(10))) {
				assertThat(handle.fencingToken()).as(shape.name()).isGreaterThan(second);
			}
			assertThat(second).as(shape.name()).isGreaterThan(first.get(shape));
		}

		// For every kind, b holds and a waits in ZooKeeper; then the quorum goes.
		Map<LockShape, LockHandle> held = new EnumMap<>(LockShape.class);
		Map<LockShape, CompletableFuture<Long>> waiters = new EnumMap<>(LockShape.class);
		Duration waiterWait = Duration.ofSeconds(4);
		for (LockShape shape : LockShape.values()) {
			held.put(shape, shape.exclusive(b, path(shape, "held")).acquire(Duration.ofSeconds(10)));
			waiters.put(shape, Faults
				.giveUpTime(() -> shape.exclusive(a, path(shape, "held")).acquire(waiterWait).close(), this.callers));
		}
		for (LockShape shape : LockShape.values()) {
			String queue = (shape == LockShape.SEMAPHORE) ? "/semaphore/" + path(shape, "held") + "/leases"
					: shape.holdersNode(path(shape, "held"));
			await().atMost(Duration.ofSeconds(10)).until(() -> Faults.children(b.client(), queue).size() == 2);
		}
		InstanceSpec secondKilled = this.cluster.getInstances()
			.stream()
			.filter((spec) -> !spec.equals(firstKilled))
			.findFirst()
			.get();
		this.cluster.killServer(secondKilled);

		Duration wait = Duration.ofSeconds(2);
		Map<LockShape, CompletableFuture<Long>> fresh = new EnumMap<>(LockShape.class);
		for (LockShape shape : LockShape.values()) {
			fresh.put(shape,
					Faults.giveUpTime(() -> shape.exclusive(a, path(shape, "y")).acquire(wait).close(), this.callers));
		}
		StringBuilder report = new StringBuilder();
		for (LockShape shape : LockShape.values()) {
			long overrun = fresh.get(shape).get(20, TimeUnit.SECONDS) - wait.toMillis();
			long waiterOverrun = waiters.get(shape).get(20, TimeUnit.SECONDS) - waiterWait.toMillis();
			assertThat(overrun).as("%s: new acquisition overrun", shape)
				.isGreaterThanOrEqualTo(0)
				.isLessThan(OVERRUN_BOUND_MILLIS);
			assertThat(waiterOverrun).as("%s: queued waiter overrun", shape)
				.isGreaterThanOrEqualTo(0)
				.isLessThan(OVERRUN_BOUND_MILLIS);
			assertThat(held.get(shape).state()).isEqualTo(LockState.LOST);
			held.get(shape).close();
			report.append(shape)
				.append(" new +")
				.append(overrun)
				.append(" ms, queued +")
				.append(waiterOverrun)
				.append(" ms; ");
		}
		System.out.println("[measure] quorum lost, past the wait time (2000 ms new, 4000 ms queued): " + report);

		// The quorum returns.
		long back = System.nanoTime();
		this.cluster.restartServer(secondKilled);
		this.cluster.restartServer(firstKilled);
		for (LockShape shape : LockShape.values()) {
			List<Long> tokens = new ArrayList<>();
			for (CuratorLocks node : List.of(a, b, a)) {
				try (LockHandle handle = shape.exclusive(node, path(shape, "held")).acquire(Duration.ofSeconds(20))) {
					tokens.add(handle.fencingToken());
				}
			}
			assertThat(tokens).as(shape.name()).isSorted().doesNotHaveDuplicates();
		}
		long workingAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - back);
		for (LockShape shape : LockShape.values()) {
			for (String name : List.of("held", "x", "y")) {
				for (String lockNode : shape.lockNodes(path(shape, name))) {
					await().atMost(Duration.ofSeconds(15))
						.untilAsserted(() -> assertThat(Faults.children(a.client(), lockNode)).isEmpty());
				}
			}
		}
		for (InstanceSpec spec : this.cluster.getInstances()) {
			await().atMost(Duration.ofSeconds(15))
				.untilAsserted(() -> assertThat(ServerWatches.watchedLockPaths(spec.getPort()))
					.as("watches on server %d", spec.getServerId())
					.isEmpty());
		}
		System.out.println("[measure] quorum back: every kind locking again " + workingAfter
				+ " ms after the servers were restarted; 0 orphan lock nodes, 0 watches on 3 servers");
	}

	private static String path(LockShape shape, String name) {
		return "quorum/" + shape.name().toLowerCase() + "/" + name;
	}

}
