package io.github.distlock.autoconfigure;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The session timeout a ZooKeeper server grants is
 * {@code distlock.zookeeper.session-timeout} capped between 2 and 20 of the server's
 * {@code tickTime}s: with the default tick of 2 s, the default request of 60 s becomes 40
 * s, and 1 s becomes 4 s. docs/production.md builds its advice on the session timeout on
 * this.
 */
class SessionTimeoutNegotiationTests {

	private static final int TICK_TIME_MILLIS = 2000;

	private static TestingServer server;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DistlockAutoConfiguration.class))
		.withPropertyValues("distlock.zookeeper.connect-string=" + server.getConnectString());

	@BeforeAll
	static void startServer() throws Exception {
		server = new TestingServer(
				new InstanceSpec(null, -1, -1, -1, true, -1, TICK_TIME_MILLIS, -1, null, "127.0.0.1"), true);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@Test
	void defaultRequestOfSixtySecondsIsCappedAtTwentyTicks() {
		this.contextRunner.run((context) -> assertThat(negotiated(context.getBean(CuratorFramework.class)))
			.isEqualTo(Duration.ofMillis(20 * TICK_TIME_MILLIS)));
	}

	@Test
	void serversMaxSessionTimeoutLiftsTheCap() throws Exception {
		try (TestingServer lifted = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, TICK_TIME_MILLIS, -1,
				Map.of("maxSessionTimeout", "90000"), "127.0.0.1"), true)) {
			new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DistlockAutoConfiguration.class))
				.withPropertyValues("distlock.zookeeper.connect-string=" + lifted.getConnectString())
				.run((context) -> assertThat(negotiated(context.getBean(CuratorFramework.class)))
					.isEqualTo(Duration.ofSeconds(60)));
		}
	}

	@Test
	void requestBetweenTheBoundsIsGranted() {
		this.contextRunner.withPropertyValues("distlock.zookeeper.session-timeout=15s")
			.run((context) -> assertThat(negotiated(context.getBean(CuratorFramework.class)))
				.isEqualTo(Duration.ofSeconds(15)));
	}

	private static Duration negotiated(CuratorFramework client) throws Exception {
		assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
		return Duration.ofMillis(client.getZookeeperClient().getZooKeeper().getSessionTimeout());
	}

}
