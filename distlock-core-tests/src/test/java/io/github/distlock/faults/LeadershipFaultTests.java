package io.github.distlock.faults;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.curator.CuratorLeadership;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperEnsemble;
import io.github.distlock.testsupport.ZooKeeperNodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leader election on a three-server ensemble, several nodes, faults injected for real: a
 * leader whose session ends is replaced by a leader with a larger epoch and told once; a
 * leader that leaves hands over at once, not after a session timeout; many groups cost no
 * thread each.
 */
class LeadershipFaultTests {

	// The member id every instance of this class takes by default.
	private static final String MEMBER = CuratorLeadership.defaultMemberId("faults");

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private ZooKeeperEnsemble servers;

	private TestingCluster cluster;

	private ZooKeeperNodes nodes;

	@BeforeEach
	void start() throws Exception {
		this.servers = Faults.shortSessionServers(3);
		this.cluster = this.servers.cluster();
		this.nodes = new ZooKeeperNodes(Faults.NODES);
	}

	@AfterEach
	void stop() throws Exception {
		this.nodes.closeQuietly();
		this.servers.close();
	}

	private Node node(String name) {
		CuratorLocks locks = this.nodes.node(this.cluster.getConnectString());
		CuratorLeadership leadership = this.nodes.register(new CuratorLeadership(locks));
		Node node = new Node(name, locks, leadership);
		leadership.addListener(node);
		return node;
	}

	@Test
	void leaderSessionEndsAnotherLeadsWithLargerEpochAndTheOldLeaderIsToldOnce() throws Exception {
		List<Node> nodes = List.of(node("a"), node("b"), node("c"));
		nodes.forEach((node) -> node.leadership.join("expiry"));
		Node leader = awaitOneLeader(nodes, "expiry");
		long epoch = leader.leadership.epoch("expiry").getAsLong();
		// The others are queued before the leader's session ends: a node that joins only
		// after the old leader queued again (a loaded machine) rightly comes after it.
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> leader.leadership.inspect("expiry").participants().size() == 3);
		Faults.killSession(leader.locks.client());
		await().atMost(WAIT)
			.until(() -> nodes.stream().filter((n) -> n != leader && n.leadership.isLeader("expiry")).count() == 1);
		Node next = awaitOneLeader(nodes, "expiry");
		assertThat(next).isNotSameAs(leader);
		assertThat(next.leadership.epoch("expiry").getAsLong()).isGreaterThan(epoch);
		// The old leader learns of its loss, once, and queues again with a new node.
		await().atMost(WAIT).until(() -> leader.events.size() == 2);
		assertThat(leader.events).containsExactly(new LeadershipGrantedEvent("expiry", epoch, MEMBER),
				new LeadershipRevokedEvent("expiry", epoch, MEMBER));
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> next.leadership.inspect("expiry").participants().size() == 3);
		assertThat(leader.leadership.isLeader("expiry")).isFalse();
		assertThat(leader.leadership.groups()).containsExactly("expiry");
	}

	@Test
	void quorumLossEndsEveryTenureAndOneLeaderLeadsAgainOnceItIsBack() throws Exception {
		List<Node> nodes = List.of(node("a"), node("b"), node("c"));
		nodes.forEach((node) -> node.leadership.join("quorum"));
		Node leader = awaitOneLeader(nodes, "quorum");
		long epoch = leader.leadership.epoch("quorum").getAsLong();
		List<InstanceSpec> killed = this.cluster.getInstances().stream().limit(2).toList();
		for (InstanceSpec server : killed) {
			this.cluster.killServer(server);
		}
		// Without a quorum nobody leads: the default policy ends a tenure on suspension.
		await().atMost(WAIT).until(() -> nodes.stream().noneMatch((n) -> n.leadership.isLeader("quorum")));
		await().atMost(WAIT).until(() -> leader.events.contains(new LeadershipRevokedEvent("quorum", epoch, MEMBER)));
		for (InstanceSpec server : killed) {
			this.cluster.restartServer(server);
		}
		Node next = awaitOneLeader(nodes, "quorum");
		// The same node again if its session survived, else a later one.
		long nextEpoch = next.leadership.epoch("quorum").getAsLong();
		assertThat(nextEpoch).isGreaterThanOrEqualTo(epoch);
		await().atMost(WAIT)
			.until(() -> next.events.get(next.events.size() - 1)
				.equals(new LeadershipGrantedEvent("quorum", nextEpoch, MEMBER)));
		for (Node node : nodes) {
			assertThat(node.events.stream().filter(LeadershipRevokedEvent.class::isInstance).count())
				.as("revocations of %s", node.name)
				.isEqualTo(node.events.stream().filter(LeadershipGrantedEvent.class::isInstance).count()
						- (node == next ? 1 : 0));
		}
	}

	@Test
	void leaderThatLeavesHandsOverAtOnce() throws Exception {
		Node a = node("a");
		a.leadership.join("handover");
		a.leadership.awaitLeadership("handover").get(30, TimeUnit.SECONDS);
		Node b = node("b");
		CompletableFuture<Long> granted = b.leadership.awaitLeadership("handover");
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> b.leadership.inspect("handover").participants().size() == 2);
		long start = System.nanoTime();
		a.leadership.close();
		granted.get(30, TimeUnit.SECONDS);
		long handOver = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
		System.out.println("[measure] graceful hand-over on a 3-server ensemble: " + handOver + " ms");
		// Not after the session timeout: the leaving node deleted its latch node.
		assertThat(handOver).isLessThan(Faults.SESSION_TIMEOUT_MS);
		assertThat(a.leadership.isLeader("handover")).isFalse();
	}

	@Test
	void leaderThatRestartsHandsOverAndQueuesBehindTheOthers() throws Exception {
		List<Node> nodes = List.of(node("a"), node("b"), node("c"));
		nodes.forEach((node) -> node.leadership.join("restart"));
		Node leader = awaitOneLeader(nodes, "restart");
		long epoch = leader.leadership.epoch("restart").getAsLong();
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> leader.leadership.inspect("restart").participants().size() == 3);
		// The leader's process stops (its election and client closed) and starts again.
		leader.leadership.close();
		leader.locks.close();
		leader.locks.client().close();
		List<Node> others = nodes.stream().filter((n) -> n != leader).toList();
		Node next = awaitOneLeader(others, "restart");
		assertThat(next.leadership.epoch("restart").getAsLong()).isGreaterThan(epoch);
		Node restarted = node(leader.name + "'");
		restarted.leadership.join("restart");
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> next.leadership.inspect("restart").participants().size() == 3);
		List<Node> running = new ArrayList<>(others);
		running.add(restarted);
		assertThat(awaitOneLeader(running, "restart")).isSameAs(next);
		assertThat(restarted.leadership.isLeader("restart")).isFalse();
		assertThat(restarted.events).isEmpty();
		assertThat(leader.events).containsExactly(new LeadershipGrantedEvent("restart", epoch, MEMBER),
				new LeadershipRevokedEvent("restart", epoch, MEMBER));
	}

	@Test
	void rawLeaderLatchTakesPartOnTheEnsemble() throws Exception {
		Node a = node("a");
		LeaderLatch latch = new LeaderLatch(this.nodes.client(this.cluster.getConnectString()), "/leader/mixed", "raw");
		latch.start();
		assertThat(latch.await(30, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Long> granted = a.leadership.awaitLeadership("mixed");
		await().atMost(WAIT).ignoreExceptions().until(() -> a.leadership.inspect("mixed").participants().size() == 2);
		assertThat(granted).isNotDone();
		latch.close();
		granted.get(30, TimeUnit.SECONDS);
		assertThat(a.leadership.isLeader("mixed")).isTrue();
	}

	@Test
	void hundredGroupsOnThreeNodesCostNoThreadPerGroup() throws Exception {
		List<Node> nodes = List.of(node("a"), node("b"), node("c"));
		// Warm each node's threads first.
		for (Node node : nodes) {
			node.leadership.awaitLeadership("warm-" + node.name).get(30, TimeUnit.SECONDS);
		}
		int before = THREADS.getThreadCount();
		THREADS.resetPeakThreadCount();
		for (int g = 0; g < 100; g++) {
			for (Node node : nodes) {
				node.leadership.join("group-" + g);
			}
		}
		await().atMost(Duration.ofSeconds(60)).until(() -> {
			for (int g = 0; g < 100; g++) {
				String group = "group-" + g;
				if (nodes.stream().filter((n) -> n.leadership.isLeader(group)).count() != 1) {
					return false;
				}
			}
			return true;
		});
		int growth = THREADS.getPeakThreadCount() - before;
		int leaders = 0;
		for (Node node : nodes) {
			for (int g = 0; g < 100; g++) {
				leaders += node.leadership.isLeader("group-" + g) ? 1 : 0;
			}
		}
		System.out.println("[measure] 100 groups x 3 nodes: " + leaders + " leaders, live threads " + before
				+ " before, peak +" + growth);
		assertThat(leaders).isEqualTo(100);
		assertThat(growth).isLessThan(20);
	}

	@Test
	void exactlyOneNodeRunsUnderLoadWhileLeadershipMovesAround() throws Exception {
		List<Node> nodes = List.of(node("a"), node("b"), node("c"));
		nodes.forEach((node) -> node.leadership.join("load"));
		AtomicInteger inBody = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		AtomicInteger endedInBody = new AtomicInteger();
		Map<String, AtomicInteger> bodies = new ConcurrentHashMap<>();
		long end = System.nanoTime() + Duration.ofSeconds(8).toNanos();
		List<Thread> threads = new ArrayList<>();
		for (Node node : nodes) {
			Thread thread = new Thread(() -> {
				int runs = 0;
				while (System.nanoTime() < end) {
					var tenure = node.leadership.tenure("load");
					if (tenure.isEmpty() || !tenure.get().isHeld()) {
						Thread.onSpinWait();
						continue;
					}
					try (var handle = tenure.get()) {
						most.accumulateAndGet(inBody.incrementAndGet(), Math::max);
						bodies.computeIfAbsent(node.name, (n) -> new AtomicInteger()).incrementAndGet();
						if (!handle.isHeld()) {
							// Only this thread gives the tenure up, between bodies:
							// no body sees it end (asserted after the threads end).
							endedInBody.incrementAndGet();
						}
						inBody.decrementAndGet();
					}
					if (++runs % 200 == 0) {
						// Leave the floor to the others now and then.
						node.leadership.relinquish("load");
					}
				}
			}, "body-" + node.name);
			thread.start();
			threads.add(thread);
		}
		for (Thread thread : threads) {
			thread.join(30_000);
		}
		System.out.println("[measure] leader-only bodies per node under load: " + bodies
				+ ", tenures ended during a body: " + endedInBody);
		assertThat(most.get()).isEqualTo(1);
		assertThat(endedInBody).hasValue(0);
		assertThat(bodies).hasSizeGreaterThanOrEqualTo(2);
	}

	private static Node awaitOneLeader(List<Node> nodes, String group) {
		await().atMost(WAIT).until(() -> nodes.stream().filter((n) -> n.leadership.isLeader(group)).count() == 1);
		return nodes.stream().filter((n) -> n.leadership.isLeader(group)).findFirst().orElseThrow();
	}

	private static final class Node implements LeadershipListener {

		final String name;

		final CuratorLocks locks;

		final CuratorLeadership leadership;

		final List<Object> events = new CopyOnWriteArrayList<>();

		Node(String name, CuratorLocks locks, CuratorLeadership leadership) {
			this.name = name;
			this.locks = locks;
			this.leadership = leadership;
		}

		@Override
		public void granted(LeadershipGrantedEvent event) {
			if (!event.group().startsWith("group-")) {
				this.events.add(event);
			}
		}

		@Override
		public void revoked(LeadershipRevokedEvent event) {
			this.events.add(event);
		}

	}

}
