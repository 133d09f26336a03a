package io.github.distlock.testsupport;

import java.util.Arrays;
import java.util.stream.Stream;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Applications of distlock's auto-configuration against the server of a
 * {@link ZooKeeperExtension}, with the property block auto-configuration tests share: the
 * server's connect string, 5 s sessions (a lost session is noticed within a test) and a 3
 * s connection timeout. The block comes as context runners (plain, servlet and reactive
 * web), as command-line arguments for a {@code SpringApplicationBuilder}; a
 * {@code @SpringBootTest} that sets its own timeouts takes the connect string alone, from
 * {@link #registerConnectString}. Make a runner in a field initializer: a static
 * extension has started its server by then.
 */
public final class DistlockContextRunners {

	/** The property that names the ZooKeeper servers. */
	public static final String CONNECT_STRING = "distlock.zookeeper.connect-string";

	private DistlockContextRunners() {
	}

	/** A runner of the given auto-configurations with the property block. */
	public static ApplicationContextRunner applicationContextRunner(ZooKeeperExtension zookeeper,
			Class<?>... autoConfigurations) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(autoConfigurations))
			.withPropertyValues(properties(zookeeper));
	}

	/** A servlet web runner of the given auto-configurations with the property block. */
	public static WebApplicationContextRunner webApplicationContextRunner(ZooKeeperExtension zookeeper,
			Class<?>... autoConfigurations) {
		return new WebApplicationContextRunner().withConfiguration(AutoConfigurations.of(autoConfigurations))
			.withPropertyValues(properties(zookeeper));
	}

	/** A reactive web runner of the given auto-configurations with the property block. */
	public static ReactiveWebApplicationContextRunner reactiveWebApplicationContextRunner(ZooKeeperExtension zookeeper,
			Class<?>... autoConfigurations) {
		return new ReactiveWebApplicationContextRunner().withConfiguration(AutoConfigurations.of(autoConfigurations))
			.withPropertyValues(properties(zookeeper));
	}

	/** The property block, as {@code key=value} pairs. */
	public static String[] properties(ZooKeeperExtension zookeeper) {
		return new String[] { connectString(zookeeper), "distlock.zookeeper.session-timeout=5s",
				"distlock.zookeeper.connection-timeout=3s" };
	}

	/**
	 * The connect string alone, as a {@code key=value} pair, for a test about what the
	 * block would set.
	 */
	public static String connectString(ZooKeeperExtension zookeeper) {
		return CONNECT_STRING + "=" + zookeeper.connectString();
	}

	/**
	 * The property block and the given further {@code key=value} pairs as command-line
	 * arguments ({@code --key=value}), for {@code SpringApplicationBuilder.run}. Give no
	 * key of the block again: a repeated argument is read as a list.
	 */
	public static String[] arguments(ZooKeeperExtension zookeeper, String... properties) {
		return Stream.concat(Arrays.stream(properties(zookeeper)), Arrays.stream(properties))
			.map((property) -> "--" + property)
			.toArray(String[]::new);
	}

	/**
	 * Register the server's connect string, read when the context starts, from a
	 * {@code @DynamicPropertySource} method.
	 */
	public static void registerConnectString(DynamicPropertyRegistry registry, ZooKeeperExtension zookeeper) {
		registry.add(CONNECT_STRING, zookeeper::connectString);
	}

}
