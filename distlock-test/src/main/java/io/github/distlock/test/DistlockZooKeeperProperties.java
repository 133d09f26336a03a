package io.github.distlock.test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The properties that point an application at a {@link TestZooKeeper}.
 */
final class DistlockZooKeeperProperties {

	/** distlock's default namespace ({@code distlock.zookeeper.namespace}). */
	static final String DEFAULT_NAMESPACE = "distlock";

	private DistlockZooKeeperProperties() {
	}

	/**
	 * The properties of a node.
	 * @param connectString where the node connects (its relay)
	 * @param sessionTimeout the session timeout
	 */
	static Map<String, Object> of(String connectString, Duration sessionTimeout) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("distlock.zookeeper.connect-string", connectString);
		properties.put("distlock.zookeeper.session-timeout", sessionTimeout.toMillis() + "ms");
		properties.put("distlock.zookeeper.connection-timeout", sessionTimeout.toMillis() + "ms");
		// The kit's server replaces the development server the application may enable.
		properties.put("distlock.zookeeper.embedded.enabled", "false");
		return properties;
	}

	/**
	 * As {@link #of}, as command line arguments: they take precedence over the
	 * application's own configuration files.
	 */
	static String[] asArguments(String connectString, Duration sessionTimeout) {
		return of(connectString, sessionTimeout).entrySet()
			.stream()
			.map((entry) -> "--" + entry.getKey() + "=" + entry.getValue())
			.toArray(String[]::new);
	}

}
