package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
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
 * A lock's create whose reply is lost with the connection is answered by Curator's
 * protected-mode recovery, which finds the node but not its stat. The node's creating
 * zxid (the fencing token) is read before the node may hold, also when the pipelined read
 * of the queue failed before the recovery answered and the connection's return is
 * reported after it (the token was 0 then).
 */
class ProtectedRecoveryTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void tokenOfANodeFoundByProtectedModeRecoveryIsItsCreatingZxid() throws Exception {
		CuratorFramework observer = this.zookeeper.newClient();
		try (TcpRelay relay = new TcpRelay(this.zookeeper.server().getPort())) {
			CuratorFramework client = RelayedClients.start(this.zookeeper, relay, new RetryOnlyCreates());
			// Told of the connection's return before the engine is: it holds the news
			// back until the recovery has answered the create.
			AttemptProbe probe = new AttemptProbe();
			client.getConnectionStateListenable().addListener((c, state) -> {
				if (state == ConnectionState.RECONNECTED) {
					probe.awaitNodeKnown();
				}
			});
			CuratorLocks locks = this.zookeeper.nodes().register(this.zookeeper.options().createLocks(client));
			// The queue's parent exists: the create goes straight to the server.
			locks.mutex("recovered").acquire(Duration.ofSeconds(10)).closeAsync().get(10, TimeUnit.SECONDS);

			relay.pause(TcpRelay.Direction.TO_CLIENT);
			CompletableFuture<LockHandle> acquisition = locks.mutex("recovered").acquireAsync(Duration.ofSeconds(20));
			await().atMost(Duration.ofSeconds(5))
				.until(() -> Faults.children(observer, "/mutex/recovered").size() == 1);
			assertThat(acquisition).isNotDone();
			probe.attempt = (Acquisition) locks.acquisitions().iterator().next();
			relay.dropConnections();
			relay.resume(TcpRelay.Direction.TO_CLIENT);

			try (LockHandle handle = acquisition.get(20, TimeUnit.SECONDS)) {
				List<String> nodes = Faults.children(observer, "/mutex/recovered");
				assertThat(nodes).hasSize(1);
				Stat stat = observer.checkExists().forPath("/mutex/recovered/" + nodes.get(0));
				assertThat(handle.fencingToken()).isPositive().isEqualTo(stat.getCzxid());
			}
			// The connection's return was told to the engine after the recovery answered.
			await().atMost(Duration.ofSeconds(10)).until(() -> probe.sawNode);
		}
	}

	/**
	 * Waits, on Curator's connection-state thread, until the acquisition's node is known.
	 */
	private static final class AttemptProbe {

		private volatile Acquisition attempt;

		private volatile boolean sawNode;

		void awaitNodeKnown() {
			Acquisition attempt = this.attempt;
			if (attempt == null) {
				return;
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> attempt.position().node() != null);
			this.sawNode = true;
		}

	}

}
