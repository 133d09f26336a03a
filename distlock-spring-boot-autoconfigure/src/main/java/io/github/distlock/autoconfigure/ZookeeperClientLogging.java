package io.github.distlock.autoconfigure;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Quiets ZooKeeper's client class to WARN: at INFO, the first client of the JVM prints
 * some twenty "Client environment:" lines (host name, Java version, class path, user and
 * directories), which say nothing about distlock's connection. Connection and session
 * events come from other loggers ({@code org.apache.zookeeper.ClientCnxn}, Curator's) and
 * keep their level. The level is a default only: a {@code logging.level} set anywhere
 * else for {@code org.apache.zookeeper.ZooKeeper} or {@code org.apache.zookeeper} wins.
 */
class ZookeeperClientLogging implements EnvironmentPostProcessor {

	static final String PROPERTY_SOURCE_NAME = "distlockZookeeperClientLogging";

	private static final String PACKAGE_LEVEL_PROPERTY = "logging.level.org.apache.zookeeper";

	private static final String CLIENT_LEVEL_PROPERTY = PACKAGE_LEVEL_PROPERTY + ".ZooKeeper";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		boolean enabled = environment.getProperty("distlock.enabled", Boolean.class, true);
		// A level set for the package would lose to this more specific default.
		boolean userSet = environment.containsProperty(PACKAGE_LEVEL_PROPERTY)
				|| environment.containsProperty(CLIENT_LEVEL_PROPERTY);
		if (enabled && !userSet && !environment.getPropertySources().contains(PROPERTY_SOURCE_NAME)) {
			environment.getPropertySources()
				.addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, Map.of(CLIENT_LEVEL_PROPERTY, "warn")));
		}
	}

}
