package io.github.distlock.actuate;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A ZooKeeper that keeps the connection open but stops answering (a hung server, a
 * stalled network path) makes the health check report {@code DOWN} after the probe
 * timeout, long before the client itself notices that the connection is gone.
 */
class HealthProbeTimeoutTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	/**
	 * A node at ZooKeeper's root whose session outlives the pause by far: only the probe
	 * notices it.
	 */
	private static final NodeOptions NODE = new NodeOptions(null, Duration.ofSeconds(15), Duration.ofSeconds(5),
			"health-test", ConnectionLossPolicy.SUSPENDED, Duration.ofSeconds(1));

	@Test
	void healthIsDownAfterTheProbeTimeoutWhenZooKeeperStopsAnswering() throws Exception {
		try (TcpRelay relay = new TcpRelay(zookeeper.server().getPort())) {
			CuratorFramework client = NODE.startClient(relay.getConnectString());
			try (CuratorLocks locks = NODE.createLocks(client)) {
				assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
				DistlockHealthIndicator indicator = new DistlockHealthIndicator(client, locks, Duration.ofMillis(300));
				assertThat(indicator.health(true).getStatus()).isEqualTo(Status.UP);

				relay.pause();
				long start = System.nanoTime();
				Health health = indicator.health(true);
				Duration took = Duration.ofNanos(System.nanoTime() - start);
				assertThat(health.getStatus()).isEqualTo(Status.DOWN);
				assertThat(health.getDetails()).containsEntry("error", "ZooKeeper did not answer within 300ms");
				// The client has not noticed yet: only the probe's own timeout
				// could tell.
				assertThat(client.getZookeeperClient().isConnected()).isTrue();
				assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(300)).isLessThan(Duration.ofSeconds(2));

				relay.resume();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> indicator.health(true).getStatus().equals(Status.UP));
				indicator.close();
			}
			finally {
				client.close();
			}
		}
	}

}
