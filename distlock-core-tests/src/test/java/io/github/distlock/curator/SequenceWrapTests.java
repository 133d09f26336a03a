package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ClusterReadWriteLock;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ServerState;
import io.github.distlock.testsupport.ServerWatches;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * ZooKeeper's sequence numbers run out after 2<sup>31</sup> child changes of a lock's
 * parent (a hot lock whose parent never empties). Measured on a real server (3.9) whose
 * parent's child version was set near the ceiling: the count then stays at its ceiling
 * for good, deletes included, so a node made alone gets {@code 2147483647} again and
 * again, and creates in flight together at that moment get {@code -2147483648},
 * {@code -2147483647}, ... (the same again at the next burst). The queue still grants one
 * holder at a time, every waiter in turn, in the order the nodes were made, and a node
 * made while another holds never holds before it, whatever its number.
 */
class SequenceWrapTests {

	static {
		ServerWatches.enable();
	}

	private static final String PARENT = "/distlock-test/mutex/wrap";

	private static final String PARENT_IN_NAMESPACE = "/mutex/wrap";

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private CuratorFramework observer;

	@Test
	void nodesMadeAfterTheWrapQueueBehindThoseMadeBefore() throws Exception {
		this.observer = this.zookeeper.newClient();
		List<CuratorLocks> nodes = nodes(6);
		// The first holder's node is made near the wrap too: the nodes of one queue are
		// never 2^31 apart (a node made at 0 would be exactly 2^31 from the first node
		// after the wrap, and no order could tell which came first).
		LockHandle parentMaker = nodes.get(0).mutex("wrap").acquire(Duration.ofSeconds(5));
		ServerState.setChildVersion(this.zookeeper.server(), PARENT, Integer.MAX_VALUE - 3);
		CompletableFuture<LockHandle> holder = queue(nodes.get(1), 2);
		parentMaker.close();
		LockHandle first = holder.get(10, TimeUnit.SECONDS);
		await().atMost(Duration.ofSeconds(5)).until(() -> children().size() == 1);
		ServerState.setChildVersion(this.zookeeper.server(), PARENT, Integer.MAX_VALUE - 1);
		List<CompletableFuture<LockHandle>> waiters = new ArrayList<>();
		waiters.add(queue(nodes.get(2), 2));
		waiters.add(queue(nodes.get(3), 3));
		// The counter wrapped (ZooKeeper goes on below zero when creates are in flight
		// together at the wrap).
		ServerState.setChildVersion(this.zookeeper.server(), PARENT, Integer.MIN_VALUE);
		waiters.add(queue(nodes.get(4), 4));
		waiters.add(queue(nodes.get(5), 5));
		assertThat(children()).anyMatch((name) -> name.endsWith("lock-2147483644"))
			.anyMatch((name) -> name.endsWith("lock-2147483646"))
			.anyMatch((name) -> name.endsWith("lock-2147483647"))
			.anyMatch((name) -> name.endsWith("lock--2147483648"))
			.anyMatch((name) -> name.endsWith("lock--2147483647"));
		List<LockHandle> granted = new ArrayList<>(List.of(first));
		for (CompletableFuture<LockHandle> waiter : waiters) {
			assertThat(waiter).isNotDone();
			granted.get(granted.size() - 1).close();
			granted.add(waiter.get(10, TimeUnit.SECONDS));
		}
		granted.get(granted.size() - 1).close();
		assertThat(granted).extracting(LockHandle::fencingToken).isSorted().doesNotHaveDuplicates();
		await().atMost(Duration.ofSeconds(5)).until(() -> children().isEmpty());
	}

	@Test
	void nodesOfTheSameNumberAreGrantedOneAtATime() throws Exception {
		this.observer = this.zookeeper.newClient();
		List<CuratorLocks> nodes = nodes(4);
		LockHandle first = nodes.get(0).mutex("wrap").acquire(Duration.ofSeconds(5));
		ServerState.setChildVersion(this.zookeeper.server(), PARENT, Integer.MAX_VALUE);
		List<CompletableFuture<LockHandle>> waiters = new ArrayList<>();
		for (int i = 1; i < nodes.size(); i++) {
			waiters.add(queue(nodes.get(i), i + 1));
		}
		assertThat(children()).filteredOn((name) -> name.endsWith("lock-2147483647")).hasSize(3);
		first.close();
		List<LockHandle> granted = new ArrayList<>();
		while (granted.size() < waiters.size()) {
			await().atMost(Duration.ofSeconds(10))
				.until(() -> waiters.stream().filter(CompletableFuture::isDone).count() == granted.size() + 1);
			LockHandle holder = waiters.stream()
				.filter(CompletableFuture::isDone)
				.map(CompletableFuture::join)
				.filter((handle) -> !granted.contains(handle))
				.findFirst()
				.orElseThrow();
			granted.add(holder);
			holder.close();
		}
		assertThat(granted).extracting(LockHandle::fencingToken).doesNotHaveDuplicates();
	}

	@Test
	void nodesMadeAtTheCeilingWhileAnotherHoldsNeverHoldFirst() throws Exception {
		this.observer = this.zookeeper.newClient();
		List<CuratorLocks> nodes = nodes(5);
		LockHandle parentMaker = nodes.get(0).mutex("wrap").acquire(Duration.ofSeconds(5));
		// The holder's node was made in a burst at the ceiling (below zero); the nodes
		// made after it alone get 2147483647, where the count then stays.
		ServerState.setChildVersion(this.zookeeper.server(), PARENT, Integer.MIN_VALUE);
		CompletableFuture<LockHandle> holding = queue(nodes.get(1), 2);
		ServerState.setChildVersion(this.zookeeper.server(), PARENT, Integer.MAX_VALUE);
		parentMaker.close();
		LockHandle holder = holding.get(10, TimeUnit.SECONDS);
		List<CompletableFuture<LockHandle>> waiters = new ArrayList<>();
		for (int i = 2; i < nodes.size(); i++) {
			waiters.add(queue(nodes.get(i), i));
			// Each waiter has looked at the queue once it watches its predecessor.
			int deciding = i - 1;
			await().atMost(Duration.ofSeconds(5))
				.until(() -> waiters.stream().allMatch(CompletableFuture::isDone) || watches().size() == deciding);
			assertThat(waiters).noneMatch(CompletableFuture::isDone);
		}
		assertThat(children()).filteredOn((name) -> name.endsWith("lock-2147483647")).hasSize(3);
		// Curator's own mutex, beside ours, sorts the numbers as text: the holder's
		// "-2147483648" comes first there too, so it waits as well.
		InterProcessMutex curator = new InterProcessMutex(this.zookeeper.newClient(), PARENT_IN_NAMESPACE);
		assertThat(curator.acquire(300, TimeUnit.MILLISECONDS)).isFalse();
		List<LockHandle> granted = new ArrayList<>(List.of(holder));
		for (CompletableFuture<LockHandle> waiter : waiters) {
			granted.get(granted.size() - 1).close();
			granted.add(waiter.get(10, TimeUnit.SECONDS));
			assertThat(waiters.stream().filter(CompletableFuture::isDone).count()).isEqualTo(granted.size() - 1);
		}
		granted.get(granted.size() - 1).close();
		assertThat(granted).extracting(LockHandle::fencingToken).isSorted().doesNotHaveDuplicates();
	}

	@Test
	void curatorsOwnMutexLetsANodeMadeBelowZeroHoldBesideTheHolder() throws Exception {
		// What Curator itself does at the ceiling, for docs/failure-model.md: it sorts
		// the numbers as text, so a later node numbered below zero sorts first and holds
		// at once beside the holder. distlock's queue, in the same spot, waits.
		this.observer = this.zookeeper.newClient();
		InterProcessMutex first = new InterProcessMutex(this.zookeeper.newClient(), PARENT_IN_NAMESPACE);
		assertThat(first.acquire(5, TimeUnit.SECONDS)).isTrue();
		ServerState.setChildVersion(this.zookeeper.server(), PARENT, Integer.MAX_VALUE);
		InterProcessMutex atCeiling = new InterProcessMutex(this.zookeeper.newClient(), PARENT_IN_NAMESPACE);
		CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> acquire(atCeiling));
		await().atMost(Duration.ofSeconds(5)).until(() -> children().size() == 2);
		first.release();
		assertThat(waiting.get(10, TimeUnit.SECONDS)).isTrue();
		ServerState.setChildVersion(this.zookeeper.server(), PARENT, Integer.MIN_VALUE);
		InterProcessMutex belowZero = new InterProcessMutex(this.zookeeper.newClient(), PARENT_IN_NAMESPACE);
		assertThat(belowZero.acquire(5, TimeUnit.SECONDS)).as("Curator's later node below zero holds at once").isTrue();
		belowZero.release();
		ServerState.setChildVersion(this.zookeeper.server(), PARENT, Integer.MIN_VALUE);
		CuratorLocks ours = this.zookeeper.newNode();
		assertThat(ours.mutex("wrap").tryAcquire(Duration.ofMillis(300))).as("distlock's later node below zero waits")
			.isEmpty();
		// The holder's node goes with its client, closed after the test (Curator's mutex
		// is released only by the thread that took it).
	}

	@Test
	void aWriteLockAtTheCeilingIsNotDowngradedInPlace() throws Exception {
		this.observer = this.zookeeper.newClient();
		CuratorLocks node = this.zookeeper.newNode();
		CuratorLocks other = this.zookeeper.newNode();
		ClusterReadWriteLock lock = node.readWrite("wrap");
		LockHandle parentMaker = other.readWrite("wrap").readLock().acquire(Duration.ofSeconds(5));
		ServerState.setChildVersion(this.zookeeper.server(), "/distlock-test/rw/wrap", Integer.MAX_VALUE);
		// The write lock is taken on this thread (a downgrade is a holder's), queued at
		// the ceiling behind the first reader, which lets go once it is queued.
		CompletableFuture<Void> letGo = CompletableFuture.runAsync(() -> {
			await().atMost(Duration.ofSeconds(5)).until(() -> Faults.children(this.observer, "/rw/wrap").size() == 2);
			parentMaker.close();
		});
		try (LockHandle write = lock.writeLock().acquire(Duration.ofSeconds(10))) {
			letGo.get(5, TimeUnit.SECONDS);
			// A read node keeping the write node's number would not keep its place there
			// (a writer queued behind would come first once the write lock is released):
			// refused, with the lock's name.
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> lock.readLock().acquire(Duration.ofSeconds(2)).close())
				.withMessageContaining("'wrap'")
				.withMessageContaining("ceiling");
			assertThat(write.isHeld()).isTrue();
			assertThat(Faults.children(this.observer, "/rw/wrap")).hasSize(1);
		}
	}

	private static boolean acquire(InterProcessMutex mutex) {
		try {
			return mutex.acquire(10, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private List<String> watches() throws Exception {
		return ServerWatches.watchedPaths(this.zookeeper.server().getPort(), "distlock-test");
	}

	private List<CuratorLocks> nodes(int count) {
		List<CuratorLocks> nodes = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			nodes.add(this.zookeeper.newNode());
		}
		return nodes;
	}

	private CompletableFuture<LockHandle> queue(CuratorLocks node, int queueLength) {
		CompletableFuture<LockHandle> waiter = node.mutex("wrap").acquireAsync(Duration.ofSeconds(20));
		await().atMost(Duration.ofSeconds(5)).until(() -> children().size() == queueLength);
		return waiter;
	}

	private List<String> children() throws Exception {
		return Faults.children(this.observer, "/mutex/wrap");
	}

}
