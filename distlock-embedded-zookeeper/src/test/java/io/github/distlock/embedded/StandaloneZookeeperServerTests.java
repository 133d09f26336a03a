package io.github.distlock.embedded;

import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The standalone development server serves a Curator client, stops when closed, and keeps
 * what it was given in the data directory it was told to use.
 */
class StandaloneZookeeperServerTests {

	private static final byte[] DATA = "probe".getBytes(StandardCharsets.UTF_8);

	@TempDir
	Path dataDir;

	@Test
	void serverOnAFreePortServesACuratorClientAndStopsWhenClosed() throws Exception {
		int port;
		try (StandaloneZookeeperServer server = StandaloneZookeeperServer.start(0, null)) {
			port = server.getPort();
			assertThat(server.getConnectString()).endsWith(":" + port);
			try (CuratorFramework client = connect(server)) {
				client.create().forPath("/probe", DATA);
				assertThat(client.getData().forPath("/probe")).isEqualTo(DATA);
			}
		}
		assertThatIOException().isThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port).close());
	}

	@Test
	void givenDataDirectoryKeepsNodesAcrossRestarts() throws Exception {
		try (StandaloneZookeeperServer server = StandaloneZookeeperServer.start(0, this.dataDir);
				CuratorFramework client = connect(server)) {
			assertThat(server.getDataDir()).isEqualTo(this.dataDir);
			client.create().forPath("/kept", DATA);
		}
		try (StandaloneZookeeperServer server = StandaloneZookeeperServer.start(0, this.dataDir);
				CuratorFramework client = connect(server)) {
			assertThat(client.getData().forPath("/kept")).isEqualTo(DATA);
		}
	}

	@Test
	void unknownArgumentIsRejectedNamingTheKnownOnes() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> StandaloneZookeeperServer.main(new String[] { "--prot=1" }))
			.withMessageContaining("--port=<port>")
			.withMessageContaining("--data-dir=<directory>");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> StandaloneZookeeperServer.main(new String[] { "--port=twenty" }))
			.withMessageContaining("between 0 and 65535");
	}

	private static CuratorFramework connect(StandaloneZookeeperServer server) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.newClient(server.getConnectString(), 10_000, 5_000,
				new RetryOneTime(100));
		client.start();
		assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
		return client;
	}

}
