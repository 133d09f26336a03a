package io.github.distlock.autoconfigure;

import org.apache.zookeeper.common.PathUtils;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Checks {@code distlock.zookeeper.namespace} at startup, so that a bad value fails with
 * a message naming the property instead of a Curator error on the first lock.
 */
final class ZookeeperNamespace {

	static final String PROPERTY = "distlock.zookeeper.namespace";

	private ZookeeperNamespace() {
	}

	/**
	 * Return the namespace if it is a valid relative ZooKeeper path.
	 * @param namespace the configured namespace
	 * @return the namespace
	 * @throws InvalidConfigurationPropertyValueException if it is not valid
	 */
	static String validate(String namespace) {
		if (namespace.isBlank()) {
			throw invalid(namespace, "it must not be empty; give distlock a node of its own, such as 'distlock'");
		}
		if (namespace.startsWith("/")) {
			throw invalid(namespace, "it must not start with '/': write '" + namespace.replaceFirst("^/+", "")
					+ "' (Curator puts the namespace under the root itself)");
		}
		if (namespace.endsWith("/")) {
			throw invalid(namespace, "it must not end with '/'");
		}
		try {
			PathUtils.validatePath("/" + namespace);
		}
		catch (IllegalArgumentException ex) {
			throw invalid(namespace, "it is not a valid ZooKeeper path: " + ex.getMessage());
		}
		String first = namespace.split("/", 2)[0];
		if (first.equals("zookeeper")) {
			throw invalid(namespace, "'/zookeeper' is reserved by ZooKeeper itself");
		}
		return namespace;
	}

	private static InvalidConfigurationPropertyValueException invalid(String namespace, String reason) {
		return new InvalidConfigurationPropertyValueException(PROPERTY, namespace, reason);
	}

}
