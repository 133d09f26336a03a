package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A mutex's create whose answer is lost with the connection, and which Curator does not
 * send again, leaves the position without a node: once the connection is back in the same
 * session, the node is made again and the lock is acquired with it.
 */
class LostCreateTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void mutexCreateLostWithTheConnectionIsMadeAgain() throws Exception {
		CuratorFramework observer = this.zookeeper.newClient();
		TcpRelay relay = this.zookeeper.nodes().register(new TcpRelay(this.zookeeper.server().getPort()));
		CuratorFramework client = RelayedClients.start(this.zookeeper, relay, new RetryNTimes(0, 0));
		CuratorLocks locks = this.zookeeper.nodes().register(this.zookeeper.options().createLocks(client));
		// The queue's parent exists: the create goes straight to the server.
		locks.mutex("lost").acquire(Duration.ofSeconds(10)).closeAsync().get(10, TimeUnit.SECONDS);
		long session = client.getZookeeperClient().getZooKeeper().getSessionId();

		relay.pause(TcpRelay.Direction.TO_CLIENT);
		CompletableFuture<LockHandle> acquisition = locks.mutex("lost").acquireAsync(Duration.ofSeconds(20));
		await().atMost(Duration.ofSeconds(5)).until(() -> Faults.children(observer, "/mutex/lost").size() == 1);
		String first = Faults.children(observer, "/mutex/lost").get(0);
		relay.dropConnections();
		relay.resume(TcpRelay.Direction.TO_CLIENT);

		try (LockHandle handle = acquisition.get(20, TimeUnit.SECONDS)) {
			assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).isEqualTo(session);
			List<String> nodes = Faults.children(observer, "/mutex/lost");
			assertThat(nodes).hasSize(1).doesNotContain(first);
			Stat stat = observer.checkExists().forPath("/mutex/lost/" + nodes.get(0));
			assertThat(handle.fencingToken()).isEqualTo(stat.getCzxid());
		}
	}

}
