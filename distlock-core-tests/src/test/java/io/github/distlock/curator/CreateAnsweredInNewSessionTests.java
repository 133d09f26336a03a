package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.RetryOnlyCreates;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A create answered after Curator replaced the ZooKeeper handle it was sent with made a
 * node in the old session, which the server may still keep. The position does not wait in
 * the queue with that node: it deletes it and makes one in the session in use.
 */
class CreateAnsweredInNewSessionTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void nodeOfAReplacedHandleIsMadeAgainInTheNewSession() throws Exception {
		CuratorFramework observer = this.zookeeper.newClient();
		CuratorLocks holderLocks = this.zookeeper.nodes().register(this.zookeeper.options().createLocks(observer));
		LockHandle holder = holderLocks.mutex("handles").acquire(Duration.ofSeconds(10));
		String holderNode = Faults.children(observer, "/mutex/handles").get(0);

		TcpRelay relay = this.zookeeper.nodes().register(new TcpRelay(this.zookeeper.server().getPort()));
		CuratorFramework client = RelayedClients.start(this.zookeeper, relay, new RetryOnlyCreates());
		client.blockUntilConnected(10, TimeUnit.SECONDS);
		LateAnswers answers = new LateAnswers();
		answers.holdCreates = true;
		CuratorLocks locks = this.zookeeper.nodes()
			.register(this.zookeeper.options().createLocks(answers.wrap(client)));

		CompletableFuture<LockHandle> acquisition = locks.mutex("handles").acquireAsync(Duration.ofSeconds(30));
		await().atMost(Duration.ofSeconds(10)).until(() -> answers.held.size() == 1);
		List<String> before = Faults.children(observer, "/mutex/handles");
		assertThat(before).hasSize(2);
		String oldNode = before.stream().filter((n) -> !n.equals(holderNode)).findFirst().orElseThrow();

		// The client gives up on its session; the server keeps it, and the node with it:
		// another handle takes the session over while the client cannot reach the server.
		RelayedClients.replaceSessionKeptOnServer(this.zookeeper, relay, client);
		assertThat(Faults.children(observer, "/mutex/handles")).contains(oldNode);
		answers.holdCreates = false;
		answers.deliverHeld();

		// Made again in the session in use, while the holder still holds.
		long session = client.getZookeeperClient().getZooKeeper().getSessionId();
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			List<String> nodes = Faults.children(observer, "/mutex/handles");
			if (nodes.size() != 2 || nodes.contains(oldNode)) {
				return false;
			}
			String ours = nodes.stream().filter((n) -> !n.equals(holderNode)).findFirst().orElseThrow();
			Stat stat = observer.checkExists().forPath("/mutex/handles/" + ours);
			return stat != null && stat.getEphemeralOwner() == session;
		});
		assertThat(acquisition).isNotDone();
		holder.close();
		try (LockHandle handle = acquisition.get(20, TimeUnit.SECONDS)) {
			List<String> nodes = Faults.children(observer, "/mutex/handles");
			assertThat(nodes).hasSize(1);
			Stat stat = observer.checkExists().forPath("/mutex/handles/" + nodes.get(0));
			assertThat(stat.getEphemeralOwner()).isEqualTo(session);
			assertThat(handle.fencingToken()).isEqualTo(stat.getCzxid());
		}
	}

}
