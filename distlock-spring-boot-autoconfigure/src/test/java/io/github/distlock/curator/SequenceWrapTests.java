package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ServerState;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * ZooKeeper's sequence numbers run out after 2<sup>31</sup> child changes of a lock's
 * parent (a hot lock whose parent never empties): new nodes then get {@code 2147483647},
 * several of them, and {@code -2147483648} and on once creates in flight together pass
 * the wrap (issue 18, item 7). The queue still grants one holder at a time, every waiter
 * in turn, and in the order the nodes were made across the wrap.
 */
class SequenceWrapTests {

	private static final String PARENT = "/distlock-test/mutex/wrap";

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
