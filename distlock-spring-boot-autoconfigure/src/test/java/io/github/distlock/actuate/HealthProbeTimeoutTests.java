package io.github.distlock.actuate;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.TcpRelay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A ZooKeeper that keeps the connection open but stops answering (a hung server, a
 * stalled network path) makes the health check report {@code DOWN} after the probe
 * timeout, long before the client itself notices that the connection is gone.
 */
class HealthProbeTimeoutTests {

	@Test
	void healthIsDownAfterTheProbeTimeoutWhenZooKeeperStopsAnswering() throws Exception {
		try (TestingServer server = new TestingServer(); TcpRelay relay = new TcpRelay(server.getPort())) {
			CuratorFramework client = CuratorFrameworkFactory.builder()
				.connectString("127.0.0.1:" + relay.port())
				.sessionTimeoutMs(15_000)
				.connectionTimeoutMs(5_000)
				.retryPolicy(new ExponentialBackoffRetry(100, 3))
				.build();
			client.start();
			try (CuratorLocks locks = new CuratorLocks(client, Duration.ofSeconds(1), "health-test")) {
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
