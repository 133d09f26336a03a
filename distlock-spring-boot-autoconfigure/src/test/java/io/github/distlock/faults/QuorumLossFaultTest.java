package io.github.distlock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ServerWatches;
import io.github.distlock.testsupport.ZooKeeperNodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A three-server ensemble: locking goes on when one server dies; with the quorum lost,
 * acquisitions (new ones and ones already waiting in ZooKeeper) fail within their
 * deadline with a clear error; once the quorum is back, locking works and no lock node or
 * watch is left behind.
 */
class QuorumLossFaultTest {

	private TestingCluster cluster;

	private ZooKeeperNodes nodes;

	@BeforeEach
	void start() throws Exception {
		ServerWatches.enable();
		this.cluster = new TestingCluster(Faults.shortSessionSpec(1), Faults.shortSessionSpec(2),
				Faults.shortSessionSpec(3));
		this.cluster.start();
		this.nodes = new ZooKeeperNodes(Faults.NODES);
	}

	@AfterEach
	void stop() throws Exception {
		this.nodes.closeQuietly();
		this.cluster.close();
	}

	@Test
	void oneServerLostLockingGoesOnQuorumLostDeadlinesHoldQuorumBackNothingLeftBehind() throws Exception {
		CuratorLocks a = this.nodes.node(this.cluster.getConnectString());
		CuratorLocks b = this.nodes.node(this.cluster.getConnectString());
		long first;
		try (LockHandle handle = a.mutex("quorum/x").acquire(Duration.ofSeconds(5))) {
			first = handle.fencingToken();
		}

		// One server down (the one a talks to): a moves to another, locking goes on.
		InstanceSpec firstKilled = this.cluster.findConnectionInstance(a.client().getZookeeperClient().getZooKeeper());
		this.cluster.killServer(firstKilled);
		long second;
		try (LockHandle handle = a.mutex("quorum/x").acquire(Duration.ofSeconds(10))) {
			second = handle.fencingToken();
		}
		try (LockHandle handle = b.mutex("quorum/x").acquire(Duration.ofSeconds(10))) {
			assertThat(handle.fencingToken()).isGreaterThan(second);
		}
		assertThat(second).isGreaterThan(first);

		// b holds, a waits in ZooKeeper; then the quorum goes.
		LockHandle held = b.mutex("quorum/held").acquire(Duration.ofSeconds(10));
		Duration waiterWait = Duration.ofSeconds(4);
		long waiterStart = System.nanoTime();
		CompletableFuture<LockHandle> waiter = CompletableFuture
			.supplyAsync(() -> a.mutex("quorum/held").acquire(waiterWait));
		await().atMost(Duration.ofSeconds(10)).until(() -> children(b.client(), "/mutex/quorum/held").size() == 2);
		// The waiter watches its predecessor: the servers' watch report shows it.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.cluster.getInstances()
				.stream()
				.filter((spec) -> !spec.equals(firstKilled))
				.anyMatch((spec) -> watched(spec).stream().anyMatch((path) -> path.contains("/mutex/quorum/held/"))));
		InstanceSpec secondKilled = this.cluster.getInstances()
			.stream()
			.filter((spec) -> !spec.equals(firstKilled))
			.findFirst()
			.get();
		this.cluster.killServer(secondKilled);

		Duration wait = Duration.ofSeconds(2);
		long start = System.nanoTime();
		assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> a.mutex("quorum/y").acquire(wait))
			.withMessageContaining("'quorum/y' was not acquired within 2000ms")
			.withMessageContaining("ZooKeeper (")
			.satisfies((ex) -> assertThat(ex.getWaitTime()).isEqualTo(wait));
		long overrun = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) - wait.toMillis();
		assertThat(overrun).isLessThan(1000);

		assertThat(waiter).failsWithin(Duration.ofSeconds(10))
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(LockTimeoutException.class)
			.withMessageContaining("'quorum/held' was not acquired within 4000ms");
		long waiterOverrun = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - waiterStart) - waiterWait.toMillis();
		assertThat(waiterOverrun).isLessThan(1000);
		assertThat(held.state()).isEqualTo(LockState.LOST);
		held.close();
		System.out.println("[measure] quorum lost: new acquisition (wait 2000 ms) failed " + overrun
				+ " ms past its deadline; waiter already queued in ZooKeeper (wait 4000 ms) failed within "
				+ waiterOverrun + " ms of its deadline");

		// The quorum returns.
		long back = System.nanoTime();
		this.cluster.restartServer(secondKilled);
		this.cluster.restartServer(firstKilled);
		List<Long> tokens = new ArrayList<>();
		for (CuratorLocks node : List.of(a, b, a)) {
			try (LockHandle handle = node.mutex("quorum/held").acquire(Duration.ofSeconds(20))) {
				tokens.add(handle.fencingToken());
			}
		}
		long workingAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - back);
		assertThat(tokens).isSorted().doesNotHaveDuplicates();
		for (String path : List.of("/mutex/quorum/held", "/mutex/quorum/x", "/mutex/quorum/y")) {
			await().atMost(Duration.ofSeconds(15))
				.untilAsserted(() -> assertThat(children(a.client(), path)).isEmpty());
		}
		for (InstanceSpec spec : this.cluster.getInstances()) {
			await().atMost(Duration.ofSeconds(15))
				.untilAsserted(() -> assertThat(ServerWatches.watchedLockPaths(spec.getPort()))
					.as("watches on server %d", spec.getServerId())
					.isEmpty());
		}
		System.out.println("[measure] quorum back: locking worked again " + workingAfter
				+ " ms after the servers were restarted; 0 orphan lock nodes, 0 watches on 3 servers");
	}

	private static List<String> watched(InstanceSpec spec) {
		try {
			return ServerWatches.watchedLockPaths(spec.getPort());
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static List<String> children(CuratorFramework client, String path) throws Exception {
		try {
			return client.getChildren().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

}
