package io.github.distlock.autoconfigure;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The session timeout a ZooKeeper server grants is
 * {@code distlock.zookeeper.session-timeout} capped between 2 and 20 of the server's
 * {@code tickTime}s: with the default tick of 2 s, the default request of 60 s becomes 40
 * s, and 1 s becomes 4 s. docs/production.md builds its advice on the session timeout on
 * this.
 */
class SessionTimeoutNegotiationTests {

	private static final Duration TICK_TIME = Duration.ofSeconds(2);

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension().withTickTime(TICK_TIME);

	@RegisterExtension
	static final ZooKeeperExtension lifted = new ZooKeeperExtension().withTickTime(TICK_TIME)
		.withServerProperty("maxSessionTimeout", "90000");

	// The connect string alone: the default session timeout is what is asked here.
	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DistlockAutoConfiguration.class))
		.withPropertyValues(DistlockContextRunners.connectString(zookeeper));

	@Test
	void defaultRequestOfSixtySecondsIsCappedAtTwentyTicks() {
		this.contextRunner.run((context) -> assertThat(negotiated(context.getBean(CuratorFramework.class)))
			.isEqualTo(TICK_TIME.multipliedBy(20)));
	}

	@Test
	void serversMaxSessionTimeoutLiftsTheCap() {
		this.contextRunner.withPropertyValues(DistlockContextRunners.connectString(lifted))
			.run((context) -> assertThat(negotiated(context.getBean(CuratorFramework.class)))
				.isEqualTo(Duration.ofSeconds(60)));
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
