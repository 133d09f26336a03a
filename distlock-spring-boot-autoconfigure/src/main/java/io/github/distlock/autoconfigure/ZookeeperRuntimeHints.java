package io.github.distlock.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * Runtime hints (for Spring AOT and GraalVM native images) of the classes ZooKeeper
 * creates by name for the client distlock builds: the client's connection socket
 * ({@code zookeeper.clientCnxnSocket}; the Netty one carries TLS). The embedded
 * development server's own are in
 * {@code io.github.distlock.autoconfigure.embedded.EmbeddedZookeeperRuntimeHints}.
 */
class ZookeeperRuntimeHints implements RuntimeHintsRegistrar {

	private static final String[] CREATED_BY_NAME = { "org.apache.zookeeper.ClientCnxnSocketNIO",
			"org.apache.zookeeper.ClientCnxnSocketNetty" };

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		for (String type : CREATED_BY_NAME) {
			hints.reflection()
				.registerType(TypeReference.of(type), MemberCategory.INVOKE_DECLARED_CONSTRUCTORS,
						MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
		}
	}

}
