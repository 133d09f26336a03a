package io.github.distlock.curator;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import org.apache.curator.drivers.AdvancedTracerDriver;
import org.apache.curator.drivers.EventTrace;
import org.apache.curator.drivers.OperationTrace;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.history.PatchedEngine;
import io.github.distlock.history.PlantedDefect;
import io.github.distlock.testsupport.ServerWatches;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A mutex acquisition whose new node's number proves it alone in its queue holds without
 * reading the queue ({@link LoneQueues}): what ZooKeeper's numbering does, that a
 * repeated uncontended cycle sends two requests, and every case where the rule must not
 * hold (another client's node, a parent reaped and made again, connection trouble).
 */
class LoneNodeGrantTests {

	static {
		ServerWatches.enable();
	}

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void sequentialNumbersCountChildCreatesNotDeletesAndRestartInANewParent() throws Exception {
		CuratorFramework raw = this.zookeeper.newClient();
		String parent = "/numbering";
		raw.create().withMode(CreateMode.CONTAINER).forPath(parent);
		String first = raw.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(parent + "/lock-");
		raw.delete().forPath(first);
		String second = raw.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(parent + "/lock-");
		raw.create().forPath(parent + "/plain");
		raw.delete().forPath(parent + "/plain");
		String third = raw.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(parent + "/lock-");
		// A delete sent right behind the node's create, as a lock cycle sends them.
		raw.delete().inBackground().forPath(third);
		String fourth = raw.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(parent + "/lock-");
		assertThat(List.of(first, second, third, fourth)).containsExactly(parent + "/lock-0000000000",
				parent + "/lock-0000000001", parent + "/lock-0000000003", parent + "/lock-0000000004");
		// The parent's cversion, as its stat shows it, counts the deletes too: the
		// numbers do not follow it.
		assertThat(raw.checkExists().forPath(parent).getCversion()).isEqualTo(8);
		// The same parent path made again counts from zero.
		raw.delete().forPath(fourth);
		raw.delete().forPath(second);
		raw.delete().forPath(parent);
		raw.create().withMode(CreateMode.CONTAINER).forPath(parent);
		assertThat(raw.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(parent + "/lock-"))
			.isEqualTo(parent + "/lock-0000000000");
	}

	@Test
	void repeatedUncontendedCyclesSendTheCreateAndTheDeleteOnly() throws Exception {
		CuratorLocks locks = newNode();
		Operations operations = new Operations();
		locks.client().getZookeeperClient().setTracerDriver(operations);
		// The first acquisition reads; the second sets the parent's watch and finds its
		// node alone.
		cycleAndSettle(locks, "hot");
		cycleAndSettle(locks, "hot");
		assertThat(operations.count("Exists")).isEqualTo(1);
		operations.clear();
		List<Long> tokens = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			LockHandle handle = locks.mutex("hot").acquire(Duration.ofSeconds(10));
			tokens.add(handle.fencingToken());
			if (i < 19) {
				// Released without waiting for the delete: the next create follows it.
				handle.close();
			}
			else {
				handle.closeAsync().get(10, TimeUnit.SECONDS);
			}
		}
		assertThat(operations.count("Create")).isEqualTo(20);
		assertThat(operations.count("Delete")).isEqualTo(20);
		assertThat(operations.count("GetChildren")).isZero();
		assertThat(operations.count("Exists")).isZero();
		assertThat(operations.total()).isEqualTo(40);
		assertThat(tokens).isSorted().doesNotHaveDuplicates();
		// The non-reentrant mutex takes the same path.
		operations.clear();
		cycleAndSettle(locks, "hot", false);
		assertThat(operations.total()).isEqualTo(2);
	}

	@Test
	void aRawCuratorMutexOnTheKeyMakesTheNextAcquisitionReadAndWait() throws Exception {
		CuratorLocks locks = newNode();
		Operations operations = new Operations();
		locks.client().getZookeeperClient().setTracerDriver(operations);
		cycleAndSettle(locks, "wire");
		cycleAndSettle(locks, "wire");
		InterProcessMutex raw = new InterProcessMutex(this.zookeeper.newClient(), queue("wire"));
		raw.acquire();
		operations.clear();
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> locks.mutex("wire").acquire(Duration.ZERO));
		assertThat(operations.count("GetChildren")).isEqualTo(1);
		raw.release();
		cycleAndSettle(locks, "wire");

		// Two distlock clients and a raw Curator client on one key never overlap.
		CuratorLocks other = this.zookeeper.newNode();
		cycleAndSettle(other, "wire");
		cycleAndSettle(other, "wire");
		InterProcessMutex rawContender = new InterProcessMutex(this.zookeeper.newClient(), queue("wire"));
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger cycles = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(3);
		try {
			List<Future<?>> runs = new ArrayList<>();
			for (CuratorLocks contender : List.of(locks, other)) {
				runs.add(pool.submit(() -> {
					for (int i = 0; i < 60; i++) {
						try (LockHandle handle = contender.mutex("wire").acquire(Duration.ofSeconds(30))) {
							critical(inside, overlaps, cycles);
						}
					}
					return null;
				}));
			}
			runs.add(pool.submit(() -> {
				for (int i = 0; i < 30; i++) {
					rawContender.acquire();
					try {
						critical(inside, overlaps, cycles);
					}
					finally {
						rawContender.release();
					}
				}
				return null;
			}));
			for (Future<?> run : runs) {
				run.get(120, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
		assertThat(cycles.get()).isEqualTo(150);
		assertThat(overlaps.get()).isZero();
	}

	@Test
	void aParentReapedAndMadeAgainDoesNotGrantBesideAnotherNode() throws Exception {
		assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> tryAfterParentMadeAgain("reaped"));
	}

	@Test
	void withoutTheParentWatchTheSameCaseGrantsBesideAnotherNode() throws Exception {
		// Shows that the case above reaches the number that would prove the node alone:
		// the same case against the engine with the parent watch's events ignored.
		try (PatchedEngine engine = PatchedEngine.plant(PlantedDefect.PARENT_WATCH_IGNORED)) {
			assertThat(engine.call(LoneNodeGrantTests.class.getName(), "grantedAfterParentMadeAgain"))
				.isEqualTo(Boolean.TRUE);
		}
	}

	/**
	 * The case above, run inside a {@link PatchedEngine}'s class loader.
	 * @return whether the acquisition was granted beside the other node
	 */
	static boolean grantedAfterParentMadeAgain() throws Exception {
		LoneNodeGrantTests test = new LoneNodeGrantTests();
		test.zookeeper.beforeEach(null);
		try (LockHandle handle = test.tryAfterParentMadeAgain("planted")) {
			return handle.nodePath().isPresent();
		}
		catch (LockTimeoutException ex) {
			return false;
		}
		finally {
			test.zookeeper.afterEach(null);
		}
	}

	@Test
	void connectionTroubleSinceTheLastReadMakesTheNextAcquisitionRead() throws Exception {
		CuratorLocks locks = newNode();
		Operations operations = new Operations();
		locks.client().getZookeeperClient().setTracerDriver(operations);
		cycleAndSettle(locks, "trouble");
		cycleAndSettle(locks, "trouble");
		long session = locks.client().getZookeeperClient().getZooKeeper().getSessionId();
		this.zookeeper.server().restart();
		await().atMost(Duration.ofSeconds(20)).until(() -> locks.client().getZookeeperClient().isConnected());
		assertThat(locks.client().getZookeeperClient().getZooKeeper().getSessionId()).isEqualTo(session);
		operations.clear();
		cycleAndSettle(locks, "trouble");
		assertThat(operations.count("GetChildren")).isEqualTo(1);
		// Once a read found the node alone under a watch set again, the rule holds again.
		cycleAndSettle(locks, "trouble");
		operations.clear();
		cycleAndSettle(locks, "trouble");
		assertThat(operations.count("GetChildren")).isZero();
	}

	@Test
	void aQueueNotAcquiredForAWhileLeavesNoWatchAndNoState() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		// Acquired again within the idle time however slow the machine.
		locks.loneQueues().idleAfter(Duration.ofMinutes(5));
		// A queue acquired once is only noted; one acquired again sets its watch.
		cycleAndSettle(locks, "once");
		cycleAndSettle(locks, "idle");
		cycleAndSettle(locks, "idle");
		assertThat(locks.loneQueues().size()[1]).isEqualTo(1);
		assertThat(ServerWatches.watchedPaths(this.zookeeper.server().getPort(), "distlock-test"))
			.containsExactly("/distlock-test" + queue("idle"));
		// Not acquired again: after the idle time the watch and the state go.
		locks.loneQueues().idleAfter(LoneQueues.IDLE);
		await().atMost(Duration.ofSeconds(15))
			.untilAsserted(
					() -> assertThat(ServerWatches.watchedPaths(this.zookeeper.server().getPort(), "distlock-test"))
						.isEmpty());
		// The sweep that removed it ends too.
		await().atMost(Duration.ofSeconds(5))
			.until(() -> locks.loneQueues().scheduledSweep() == null && locks.threads().timer().pending() == 0);
		assertThat(locks.leftovers()).isZero();
		assertThat(locks.loneQueues().size()).containsExactly(0, 0);
	}

	@Test
	void closedLocksLeaveNoParentWatch() throws Exception {
		CuratorLocks locks = newNode();
		for (String key : List.of("a", "b")) {
			cycleAndSettle(locks, key);
			cycleAndSettle(locks, key);
		}
		assertThat(locks.loneQueues().size()).containsExactly(2, 2);
		assertThat(ServerWatches.watchedPaths(this.zookeeper.server().getPort(), "distlock-test"))
			.containsExactlyInAnyOrder("/distlock-test" + queue("a"), "/distlock-test" + queue("b"));
		ZooKeeper zooKeeper = locks.client().getZookeeperClient().getZooKeeper();
		assertThat(localDataWatches(zooKeeper)).contains("/distlock-test" + queue("a"), "/distlock-test" + queue("b"));
		locks.close();
		assertThat(locks.loneQueues().size()).containsExactly(0, 0);
		// ZooKeeper removes a watcher in the client only, and keeps the watch until its
		// node changes: what shows a watcher left in the client is the watch it sets
		// again when it reconnects in the same session.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> localDataWatches(zooKeeper).stream().noneMatch((path) -> path.startsWith("/distlock-test")));
		long session = locks.client().getZookeeperClient().getZooKeeper().getSessionId();
		this.zookeeper.server().restart();
		await().atMost(Duration.ofSeconds(20)).until(() -> locks.client().getZookeeperClient().isConnected());
		assertThat(locks.client().getZookeeperClient().getZooKeeper().getSessionId()).isEqualTo(session);
		assertThat(ServerWatches.watchedPaths(this.zookeeper.server().getPort(), "distlock-test")).isEmpty();
	}

	/**
	 * Make our node alone and release it, then delete the queue's parent, make it again
	 * and fill it until the next create gets the number that would prove our next node
	 * alone, with a raw Curator mutex holding in it; then try once.
	 */
	private LockHandle tryAfterParentMadeAgain(String key) throws Exception {
		CuratorLocks locks = newNode();
		cycleAndSettle(locks, key);
		LockHandle previous = locks.mutex(key).acquire(Duration.ofSeconds(10));
		int previousNumber = QueueDriver.sequence(previous.nodePath().orElseThrow(), QueueDriver.LOCK_NAME);
		previous.closeAsync().get(10, TimeUnit.SECONDS);
		CuratorFramework raw = this.zookeeper.newClient();
		raw.delete().forPath(queue(key));
		raw.create().withMode(CreateMode.CONTAINER).forPath(queue(key));
		InterProcessMutex foreign = new InterProcessMutex(raw, queue(key));
		foreign.acquire();
		assertThat(previousNumber).isPositive();
		int filler;
		do {
			filler = number(raw.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(queue(key) + "/filler-"));
			raw.delete().forPath(queue(key) + "/filler-" + String.format("%010d", filler));
		}
		while (filler < previousNumber);
		assertThat(filler).isEqualTo(previousNumber);
		try {
			return locks.mutex(key).acquire(Duration.ZERO);
		}
		finally {
			// Exactly one create came between: ours, numbered as the rule wants.
			assertThat(number(raw.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(queue(key) + "/filler-")))
				.isEqualTo(previousNumber + 2);
			assertThat(raw.getChildren().forPath(queue(key))).anyMatch((child) -> child.endsWith("lock-0000000000"));
			foreign.release();
		}
	}

	/**
	 * A client whose queues stay taking part for minutes without an acquisition, so that
	 * no test depends on how fast the machine runs its cycles.
	 */
	private CuratorLocks newNode() {
		CuratorLocks locks = this.zookeeper.newNode();
		locks.loneQueues().idleAfter(Duration.ofMinutes(5));
		return locks;
	}

	@SuppressWarnings("unchecked")
	private static List<String> localDataWatches(ZooKeeper zooKeeper) throws Exception {
		Method method = ZooKeeper.class.getDeclaredMethod("getDataWatches");
		method.setAccessible(true);
		return (List<String>) method.invoke(zooKeeper);
	}

	private static int number(String node) {
		return Integer.parseInt(node.substring(node.length() - 10));
	}

	private static void critical(AtomicInteger inside, AtomicInteger overlaps, AtomicInteger cycles) {
		if (inside.incrementAndGet() != 1) {
			overlaps.incrementAndGet();
		}
		Thread.onSpinWait();
		inside.decrementAndGet();
		cycles.incrementAndGet();
	}

	private static void cycleAndSettle(CuratorLocks locks, String key) throws Exception {
		cycleAndSettle(locks, key, true);
	}

	private static void cycleAndSettle(CuratorLocks locks, String key, boolean reentrant) throws Exception {
		LockHandle handle = (reentrant ? locks.mutex(key) : locks.nonReentrantMutex(key))
			.acquire(Duration.ofSeconds(10));
		handle.closeAsync().get(10, TimeUnit.SECONDS);
	}

	private static String queue(String key) {
		return QueuePaths.of(LockKind.MUTEX, LockPath.parse(key));
	}

	/** Counts the operations Curator traces for one client, by kind. */
	private static final class Operations extends AdvancedTracerDriver {

		private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

		@Override
		public void addTrace(OperationTrace trace) {
			this.counts.computeIfAbsent(trace.getName(), (name) -> new LongAdder()).increment();
		}

		@Override
		public void addEvent(EventTrace trace) {
		}

		long count(String kind) {
			return this.counts.entrySet()
				.stream()
				.filter((entry) -> entry.getKey().equals(kind + "BuilderImpl-Background"))
				.mapToLong((entry) -> entry.getValue().sum())
				.sum();
		}

		long total() {
			return this.counts.entrySet()
				.stream()
				.filter((entry) -> entry.getKey().endsWith("-Background"))
				.mapToLong((entry) -> entry.getValue().sum())
				.sum();
		}

		void clear() {
			this.counts.clear();
		}

	}

}
