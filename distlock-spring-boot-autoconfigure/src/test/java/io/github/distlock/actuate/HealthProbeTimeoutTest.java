package io.github.distlock.actuate;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import io.github.distlock.curator.CuratorLocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A ZooKeeper that keeps the connection open but stops answering (a hung server, a
 * stalled network path) makes the health check report {@code DOWN} after the probe
 * timeout, long before the client itself notices that the connection is gone.
 */
class HealthProbeTimeoutTest {

	@Test
	void healthIsDownAfterTheProbeTimeoutWhenZooKeeperStopsAnswering() throws Exception {
		try (TestingServer server = new TestingServer(); Relay relay = new Relay(server.getPort())) {
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
				// The client has not noticed yet: only the probe's own timeout could
				// tell.
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

	/**
	 * Forwards TCP connections to a port, and can stop forwarding while keeping the
	 * connections open.
	 */
	private static final class Relay implements AutoCloseable {

		private final int target;

		private final ServerSocket listener;

		private final List<Socket> sockets = new CopyOnWriteArrayList<>();

		private final Object gate = new Object();

		private boolean paused;

		Relay(int target) throws IOException {
			this.target = target;
			this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
			Thread acceptor = new Thread(this::accept, "relay-accept");
			acceptor.setDaemon(true);
			acceptor.start();
		}

		int port() {
			return this.listener.getLocalPort();
		}

		void pause() {
			synchronized (this.gate) {
				this.paused = true;
			}
		}

		void resume() {
			synchronized (this.gate) {
				this.paused = false;
				this.gate.notifyAll();
			}
		}

		private void accept() {
			try {
				while (true) {
					Socket inbound = this.listener.accept();
					Socket outbound = new Socket(InetAddress.getLoopbackAddress(), this.target);
					this.sockets.add(inbound);
					this.sockets.add(outbound);
					pump(inbound, outbound);
					pump(outbound, inbound);
				}
			}
			catch (IOException ex) {
				// closed
			}
		}

		private void pump(Socket from, Socket to) {
			Thread thread = new Thread(() -> {
				byte[] buffer = new byte[8192];
				try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
					int read;
					while ((read = in.read(buffer)) >= 0) {
						synchronized (this.gate) {
							while (this.paused) {
								this.gate.wait();
							}
						}
						out.write(buffer, 0, read);
						out.flush();
					}
				}
				catch (IOException | InterruptedException ex) {
					// closed
				}
			}, "relay-pump");
			thread.setDaemon(true);
			thread.start();
		}

		@Override
		public void close() throws IOException {
			resume();
			this.listener.close();
			for (Socket socket : this.sockets) {
				socket.close();
			}
		}

	}

}
