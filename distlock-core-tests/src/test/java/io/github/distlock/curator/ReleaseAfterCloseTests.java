package io.github.distlock.curator;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.listen.ListenerManager;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LockHandle;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A hold kept across {@link CuratorLocks#close()} and released while ZooKeeper is away:
 * its release completes like any other, although it was the last hold following the
 * session. The delete, answered for want of a connection, is sent again when the
 * connection returns within the session, or completed when the session ends (the node
 * died with it); nothing is left in the engine afterwards.
 * <p>
 * The client connects through a relay that the test cuts, with no retry of Curator's own,
 * so that the delete's answer (connection loss) comes within the connection timeout, and
 * the test waits for that answer before the connection returns.
 */
class ReleaseAfterCloseTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void releaseAfterCloseIsSentAgainWhenTheConnectionReturnsInTheSession() throws Exception {
		TcpRelay relay = this.zookeeper.nodes().register(new TcpRelay(this.zookeeper.server().getPort()));
		CuratorFramework client = RelayedClients.start(this.zookeeper, relay, new RetryNTimes(0, 0));
		CuratorLocks locks = this.zookeeper.nodes()
			.register(Faults.NODES.withConnectionLossPolicy(ConnectionLossPolicy.LOST).createLocks(client));
		LockHandle held = locks.mutex("release-after-close").acquire(Duration.ofSeconds(5));
		String node = held.nodePath().orElseThrow();
		long session = locks.clientInstance();
		int listeners = listeners(client);
		locks.close();

		CompletableFuture<Void> released = releaseWhileCutOff(relay, client, locks, held);
		// The engine still follows the connection for the release.
		assertThat(listeners(client)).isEqualTo(listeners);
		relay.restore();

		assertThat(released).succeedsWithin(Duration.ofSeconds(15));
		assertThat(locks.clientInstance()).isEqualTo(session);
		CuratorLocks other = this.zookeeper.newNode();
		assertThat(other.client().checkExists().forPath(node)).isNull();
		assertThat(locks.leftovers()).isZero();
		assertThat(locks.heldLocks()).isEmpty();
		// and stops once it is done.
		await().atMost(Duration.ofSeconds(5)).until(() -> listeners(client) == listeners - 1);
	}

	@Test
	void releaseAfterCloseCompletesWhenTheSessionEnds() throws Exception {
		TcpRelay relay = this.zookeeper.nodes().register(new TcpRelay(this.zookeeper.server().getPort()));
		CuratorFramework client = RelayedClients.start(this.zookeeper, relay, new RetryNTimes(0, 0));
		CuratorLocks locks = this.zookeeper.nodes()
			.register(Faults.NODES.withConnectionLossPolicy(ConnectionLossPolicy.LOST).createLocks(client));
		LockHandle held = locks.mutex("release-after-close").acquire(Duration.ofSeconds(5));
		String node = held.nodePath().orElseThrow();
		long session = locks.clientInstance();
		int listeners = listeners(client);
		locks.close();

		CompletableFuture<Void> released = releaseWhileCutOff(relay, client, locks, held);
		// The engine still follows the connection for the release.
		assertThat(listeners(client)).isEqualTo(listeners);
		// The server ends the session meanwhile (its node goes with it); the client
		// learns it when it connects again.
		Faults.killSession(client, this.zookeeper.connectString());
		relay.restore();

		assertThat(released).succeedsWithin(Duration.ofSeconds(15));
		assertThat(locks.clientInstance()).isNotEqualTo(session);
		CuratorLocks other = this.zookeeper.newNode();
		assertThat(other.client().checkExists().forPath(node)).isNull();
		assertThat(locks.leftovers()).isZero();
		assertThat(locks.heldLocks()).isEmpty();
		// and stops once it is done.
		await().atMost(Duration.ofSeconds(5)).until(() -> listeners(client) == listeners - 1);
	}

	private static int listeners(CuratorFramework client) {
		return ((ListenerManager<?, ?>) client.getConnectionStateListenable()).size();
	}

	/**
	 * Cut the client off, release the hold, and wait until the delete was answered for
	 * want of a connection (it waits for the connection to return).
	 */
	private static CompletableFuture<Void> releaseWhileCutOff(TcpRelay relay, CuratorFramework client,
			CuratorLocks locks, LockHandle held) {
		relay.cut();
		await().atMost(Duration.ofSeconds(10)).until(() -> !client.getZookeeperClient().isConnected());
		CompletableFuture<Void> released = held.closeAsync();
		await().atMost(Duration.ofSeconds(10)).until(() -> locks.leftovers() == 1);
		assertThat(released).isNotDone();
		return released;
	}

}
