package io.github.distlock.autoconfigure.embedded;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * Runtime hints (for Spring AOT and GraalVM native images) of the classes ZooKeeper
 * creates by name for the embedded development server: its connection factory and its
 * metrics provider.
 */
class EmbeddedZookeeperRuntimeHints implements RuntimeHintsRegistrar {

	private static final String[] CREATED_BY_NAME = { "org.apache.zookeeper.server.NIOServerCnxnFactory",
			"org.apache.zookeeper.server.NettyServerCnxnFactory",
			"org.apache.zookeeper.metrics.impl.DefaultMetricsProvider" };

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		for (String type : CREATED_BY_NAME) {
			hints.reflection()
				.registerType(TypeReference.of(type), MemberCategory.INVOKE_DECLARED_CONSTRUCTORS,
						MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
		}
	}

}
