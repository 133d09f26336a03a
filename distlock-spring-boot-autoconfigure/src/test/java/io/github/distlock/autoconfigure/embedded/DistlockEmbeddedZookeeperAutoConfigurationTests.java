package io.github.distlock.autoconfigure.embedded;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.ZookeeperConnectionDetails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link DistlockEmbeddedZookeeperAutoConfiguration}.
 */
class DistlockEmbeddedZookeeperAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DistlockEmbeddedZookeeperAutoConfiguration.class,
				DistlockAutoConfiguration.class))
		.withPropertyValues("distlock.zookeeper.embedded.port=0", "distlock.zookeeper.session-timeout=5s",
				"distlock.zookeeper.connection-timeout=3s");

	@Test
	void embeddedServerIsOffUnlessAsked() {
		this.contextRunner.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.1:1").run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(EmbeddedZookeeperServer.class)
				.doesNotHaveBean(DistlockEmbeddedZookeeperAutoConfiguration.EmbeddedZookeeperConnectionDetails.class);
			assertThat(context.getBean(ZookeeperConnectionDetails.class).getConnectString()).isEqualTo("127.0.0.1:1");
		});
	}

	@Test
	void embeddedServerStartsServesAndStopsWithTheContext() throws Exception {
		AtomicInteger port = new AtomicInteger();
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.embedded.enabled=true",
					"distlock.zookeeper.connect-string=127.0.0.1:1")
			.run((context) -> {
				assertThat(context).hasSingleBean(EmbeddedZookeeperServer.class);
				EmbeddedZookeeperServer server = context.getBean(EmbeddedZookeeperServer.class);
				port.set(server.getPort());
				assertThat(port.get()).isPositive();
				// the connection details point at the embedded server, not at
				// the property
				assertThat(context.getBean(ZookeeperConnectionDetails.class).getConnectString())
					.isEqualTo(server.getConnectString())
					.isEqualTo("127.0.0.1:" + port.get());
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
				client.create().forPath("/probe", "hello".getBytes(StandardCharsets.UTF_8));
				assertThat(client.getData().forPath("/probe")).asString(StandardCharsets.UTF_8).isEqualTo("hello");
				try (CuratorFramework other = CuratorFrameworkFactory.newClient(server.getConnectString(), 5000, 3000,
						new RetryOneTime(100))) {
					other.start();
					assertThat(other.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
					// a separate client (separate session) sees the node under
					// the namespace
					assertThat(other.getData().forPath("/distlock/probe")).asString(StandardCharsets.UTF_8)
						.isEqualTo("hello");
				}
			});
		assertThatExceptionOfType(ConnectException.class)
			.isThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), port.get()).close());
	}

	@Test
	void embeddedServerKeepsItsDataInTheConfiguredDirectory(@TempDir Path dataDir) {
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.embedded.enabled=true",
					"distlock.zookeeper.embedded.data-dir=" + dataDir)
			.run((context) -> {
				CuratorFramework client = context.getBean(CuratorFramework.class);
				client.create().forPath("/kept", "data".getBytes(StandardCharsets.UTF_8));
			});
		assertThat(dataDir.resolve("version-2")).isDirectory();
		this.contextRunner
			.withPropertyValues("distlock.zookeeper.embedded.enabled=true",
					"distlock.zookeeper.embedded.data-dir=" + dataDir)
			.run((context) -> {
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getData().forPath("/kept")).asString(StandardCharsets.UTF_8).isEqualTo("data");
			});
	}

	@ParameterizedTest
	@CsvSource({ "com.codahale.metrics, io.dropwizard.metrics:metrics-core",
			"org.xerial.snappy, org.xerial.snappy:snappy-java" })
	void embeddedServerWithoutItsDependenciesFailsStartupNamingThem(String missingPackage, String dependency) {
		this.contextRunner.withClassLoader(new FilteredClassLoader(missingPackage))
			.withPropertyValues("distlock.zookeeper.embedded.enabled=true")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("embedded ZooKeeper server needs " + dependency);
			});
	}

	@Test
	void embeddedServerOnAPortInUseFailsStartupNamingThePort() throws IOException {
		try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			this.contextRunner
				.withPropertyValues("distlock.zookeeper.embedded.enabled=true",
						"distlock.zookeeper.embedded.port=" + taken.getLocalPort())
				.run((context) -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure()).rootCause()
						.isInstanceOf(IllegalStateException.class)
						.hasMessageContaining("cannot listen on port " + taken.getLocalPort())
						.hasMessageContaining("distlock.zookeeper.embedded.port");
				});
		}
	}

}
