package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import org.apache.curator.framework.CuratorFramework;
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
 * A node found by Curator's protected-mode recovery has its stat read before it may hold.
 * When the node is gone by then, the position makes a new one and holds with it; when the
 * read fails for want of a connection, it is sent again once the connection is back.
 */
class NodeConfirmationTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void nodeGoneWhileItsStatIsReadIsMadeAgain() throws Exception {
		CuratorFramework observer = this.zookeeper.newClient();
		List<String> deleted = new CopyOnWriteArrayList<>();
		// The first stat read of the recovered node finds it deleted by another client.
		Recovered recovered = recover("gone", (path, relay) -> {
			if (deleted.isEmpty()) {
				try {
					observer.delete().forPath(path);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
				deleted.add(path);
			}
		});
		try (LockHandle handle = recovered.acquisition.get(20, TimeUnit.SECONDS)) {
			assertThat(deleted).hasSize(1);
			assertThat(recovered.statReads).hasSize(1);
			List<String> nodes = Faults.children(observer, "/mutex/gone");
			assertThat(nodes).hasSize(1);
			String node = "/mutex/gone/" + nodes.get(0);
			assertThat(node).isNotEqualTo(deleted.get(0));
			Stat stat = observer.checkExists().forPath(node);
			assertThat(handle.fencingToken()).isEqualTo(stat.getCzxid());
		}
	}

	@Test
	void statReadLostWithTheConnectionIsSentAgain() throws Exception {
		CuratorFramework observer = this.zookeeper.newClient();
		// The first stat read of the recovered node goes out as the connection drops.
		Recovered recovered = recover("stalled", (path, relay) -> {
			if (relay.statReads.size() == 1) {
				relay.relay.dropConnections();
			}
		});
		try (LockHandle handle = recovered.acquisition.get(20, TimeUnit.SECONDS)) {
			List<String> nodes = Faults.children(observer, "/mutex/stalled");
			assertThat(nodes).hasSize(1);
			String node = "/mutex/stalled/" + nodes.get(0);
			assertThat(recovered.statReads).containsExactly(node, node);
			Stat stat = observer.checkExists().forPath(node);
			assertThat(handle.fencingToken()).isPositive().isEqualTo(stat.getCzxid());
		}
	}

	/**
	 * Start an acquisition of the mutex whose create's reply is lost with the connection,
	 * so that Curator's protected-mode recovery finds its node without the stat.
	 */
	private Recovered recover(String name, BiConsumer<String, Recovered> onStatRead) throws Exception {
		CuratorFramework observer = this.zookeeper.newClient();
		TcpRelay relay = this.zookeeper.nodes().register(new TcpRelay(this.zookeeper.server().getPort()));
		CuratorFramework client = RelayedClients.start(this.zookeeper, relay, new RetryOnlyCreates());
		LateAnswers answers = new LateAnswers();
		CuratorLocks locks = this.zookeeper.nodes()
			.register(this.zookeeper.options().createLocks(answers.wrap(client)));
		// The queue's parent exists: the create goes straight to the server.
		locks.mutex(name).acquire(Duration.ofSeconds(10)).closeAsync().get(10, TimeUnit.SECONDS);
		Recovered recovered = new Recovered(relay);
		String queue = "/mutex/" + name + "/";
		answers.beforeExistsCheck = (path) -> {
			if (path.startsWith(queue)) {
				recovered.statReads.add(path);
				onStatRead.accept(path, recovered);
			}
		};
		relay.pause(TcpRelay.Direction.TO_CLIENT);
		recovered.acquisition = locks.mutex(name).acquireAsync(Duration.ofSeconds(20));
		await().atMost(Duration.ofSeconds(5)).until(() -> Faults.children(observer, "/mutex/" + name).size() == 1);
		assertThat(recovered.statReads).isEmpty();
		relay.dropConnections();
		relay.resume(TcpRelay.Direction.TO_CLIENT);
		return recovered;
	}

	private static final class Recovered {

		final TcpRelay relay;

		final List<String> statReads = new CopyOnWriteArrayList<>();

		volatile CompletableFuture<LockHandle> acquisition;

		Recovered(TcpRelay relay) {
			this.relay = relay;
		}

	}

}
