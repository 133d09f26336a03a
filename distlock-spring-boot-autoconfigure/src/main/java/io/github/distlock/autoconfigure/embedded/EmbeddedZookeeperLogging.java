package io.github.distlock.autoconfigure.embedded;

import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Quiets ZooKeeper's own logging to WARN when distlock starts the embedded development
 * server: at INFO the server and client print some fifty lines of environment and
 * configuration at startup, and "ZK server died" at every normal shutdown. The level is a
 * default only: {@code logging.level.org.apache.zookeeper} set anywhere else wins.
 */
class EmbeddedZookeeperLogging implements EnvironmentPostProcessor {

	static final String PROPERTY_SOURCE_NAME = "distlockEmbeddedZookeeperLogging";

	private static final String LEVEL_PROPERTY = "logging.level.org.apache.zookeeper";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		boolean embedded = environment.getProperty("distlock.enabled", Boolean.class, true)
				&& environment.getProperty("distlock.zookeeper.embedded.enabled", Boolean.class, false);
		if (embedded && !environment.getPropertySources().contains(PROPERTY_SOURCE_NAME)) {
			environment.getPropertySources()
				.addLast(new MapPropertySource(PROPERTY_SOURCE_NAME, Map.of(LEVEL_PROPERTY, "warn",
						// Warns "maxCnxns is not configured" unless a JVM-wide system
						// property is set: nothing to act on for a development server.
						LEVEL_PROPERTY + ".server.ServerCnxnFactory", "error")));
		}
	}

}
