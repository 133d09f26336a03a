package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A waiter whose node another client deleted learns of it at its next read of the queue,
 * and queues again with a new node.
 */
class DeletedWaiterNodeTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void waiterWhoseNodeWasDeletedQueuesAgain() throws Exception {
		CuratorFramework observer = this.zookeeper.newClient();
		CuratorLocks holderLocks = this.zookeeper.nodes().register(this.zookeeper.options().createLocks(observer));
		LockHandle holder = holderLocks.mutex("deleted").acquire(Duration.ofSeconds(10));
		String holderNode = Faults.children(observer, "/mutex/deleted").get(0);

		LateAnswers answers = new LateAnswers();
		CuratorFramework client = this.zookeeper.newClient();
		CuratorLocks locks = this.zookeeper.nodes()
			.register(this.zookeeper.options().createLocks(answers.wrap(client)));
		CompletableFuture<LockHandle> acquisition = locks.mutex("deleted").acquireAsync(Duration.ofSeconds(20));
		// Waiting, watching the holder's node.
		await().atMost(Duration.ofSeconds(10)).until(() -> answers.watchesSet.get() == 1);
		List<String> queued = Faults.children(observer, "/mutex/deleted");
		assertThat(queued).hasSize(2);
		String waiterNode = queued.stream().filter((n) -> !n.equals(holderNode)).findFirst().orElseThrow();
		observer.delete().forPath("/mutex/deleted/" + waiterNode);
		assertThat(acquisition).isNotDone();

		holder.close();
		try (LockHandle handle = acquisition.get(20, TimeUnit.SECONDS)) {
			List<String> nodes = Faults.children(observer, "/mutex/deleted");
			assertThat(nodes).hasSize(1).doesNotContain(waiterNode, holderNode);
			Stat stat = observer.checkExists().forPath("/mutex/deleted/" + nodes.get(0));
			assertThat(handle.fencingToken()).isEqualTo(stat.getCzxid());
		}
		assertThat(answers.watchesSet.get()).isEqualTo(1);
	}

}
