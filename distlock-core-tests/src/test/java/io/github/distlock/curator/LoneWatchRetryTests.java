package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.ServerWatches;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The watch that {@link LoneQueues} sets on a mutex queue's parent, when the
 * {@code exists} that sets it is answered only after the queue stopped taking part:
 * removed by the idle sweep (while disconnected, so only the client forgot the watcher),
 * or by {@link CuratorLocks#close()}. Both suspicions are proven: Curator retries the
 * {@code exists} once the connection returns, the server sets the watch, and its answer
 * was ignored as being about a watch no queue has any more, so the watch stayed on the
 * server. Now the answer of a superseded watch that the server set removes it.
 * <p>
 * The relay holds the {@code exists} (sent with the second acquisition's create, to set
 * the watch) and then cuts the connection, so that the request is answered with a
 * connection loss and Curator sends it again after the connection returned: the
 * interleaving of "the watch noted, its registration not yet through" with the removal is
 * forced, with no timing.
 */
class LoneWatchRetryTests {

	static {
		ServerWatches.enable();
	}

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void idleSweepWhileDisconnectedLeavesNoWatchOnTheServer() throws Exception {
		TcpRelay relay = this.zookeeper.nodes().register(new TcpRelay(this.zookeeper.server().getPort()));
		CuratorFramework client = RelayedClients.start(this.zookeeper, relay, new RetryNTimes(50, 200));
		CuratorLocks locks = this.zookeeper.nodes().register(this.zookeeper.options().createLocks(client));
		CompletableFuture<LockHandle> second = watchSetWhileCut(relay, client, locks);

		// The sweep drops the queue while the client is cut off: only the client forgets
		// its watcher.
		locks.loneQueues().idleAfter(Duration.ofMillis(1));
		await().atMost(Duration.ofSeconds(10)).until(() -> locks.loneQueues().size()[1] == 0);
		relay.restore();

		assertThat(second).succeedsWithin(Duration.ofSeconds(20)).satisfies(LockHandle::close);
		await().atMost(Duration.ofSeconds(10)).until(() -> locks.loneQueues().size()[0] == 0);
		await().atMost(Duration.ofSeconds(10)).until(() -> watches().isEmpty());
	}

	@Test
	void closeBeforeTheWatchIsThroughLeavesNoWatchOnTheServer() throws Exception {
		TcpRelay relay = this.zookeeper.nodes().register(new TcpRelay(this.zookeeper.server().getPort()));
		CuratorFramework client = RelayedClients.start(this.zookeeper, relay, new RetryNTimes(50, 200));
		CuratorLocks locks = this.zookeeper.nodes().register(this.zookeeper.options().createLocks(client));
		CompletableFuture<LockHandle> second = watchSetWhileCut(relay, client, locks);

		locks.close();
		assertThat(locks.loneQueues().size()).containsExactly(0, 0);
		relay.restore();

		assertThat(second).failsWithin(Duration.ofSeconds(10));
		await().atMost(Duration.ofSeconds(10)).until(() -> client.getZookeeperClient().isConnected());
		await().atMost(Duration.ofSeconds(10)).until(() -> watches().isEmpty());
	}

	/**
	 * Acquire the queue once (noted), then again with the relay holding what the client
	 * sends, and cut the connection: the create and the parent's {@code exists} are
	 * answered with a connection loss, and Curator will send the {@code exists} again.
	 */
	private CompletableFuture<LockHandle> watchSetWhileCut(TcpRelay relay, CuratorFramework client, CuratorLocks locks)
			throws Exception {
		locks.loneQueues().idleAfter(Duration.ofMinutes(5));
		locks.mutex("lone-retry").acquire(Duration.ofSeconds(5)).closeAsync().get();
		assertThat(locks.loneQueues().size()).containsExactly(1, 0);
		relay.pause();
		CompletableFuture<LockHandle> second = locks.mutex("lone-retry").acquireAsync(Duration.ofSeconds(60));
		await().atMost(Duration.ofSeconds(10)).until(() -> locks.loneQueues().size()[1] == 1);
		relay.cut();
		await().atMost(Duration.ofSeconds(10)).until(() -> !client.getZookeeperClient().isConnected());
		relay.resume();
		return second;
	}

	private List<String> watches() throws Exception {
		return ServerWatches.watchedPaths(this.zookeeper.server().getPort(), this.zookeeper.options().namespace());
	}

}
