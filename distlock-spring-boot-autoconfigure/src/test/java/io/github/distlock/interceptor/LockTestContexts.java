package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.MapPropertySource;

import io.github.distlock.autoconfigure.DistlockProperties;
import io.github.distlock.curator.CuratorLocks;

/**
 * Starts application contexts holding the lock proxy configuration, a
 * {@link CuratorLocks} on its own {@link CuratorFramework} (its own session: one context
 * stands for one node) and the given components, against one ZooKeeper server for the
 * test class; closes them all at the end. Register it on a static field with
 * {@code @RegisterExtension}.
 */
final class LockTestContexts implements BeforeAllCallback, AfterAllCallback {

	static final String NAMESPACE = "distlock-it";

	private TestingServer server;

	private final List<AnnotationConfigApplicationContext> contexts = new ArrayList<>();

	@Override
	public void beforeAll(ExtensionContext context) throws Exception {
		this.server = new TestingServer(true);
	}

	@Override
	public void afterAll(ExtensionContext context) throws Exception {
		this.contexts.forEach(AnnotationConfigApplicationContext::close);
		this.server.close();
	}

	/** The ZooKeeper server all contexts of the test class connect to. */
	TestingServer server() {
		return this.server;
	}

	String connectString() {
		return this.server.getConnectString();
	}

	AnnotationConfigApplicationContext start(Class<?>... components) {
		return start((context) -> {
		}, components);
	}

	AnnotationConfigApplicationContext start(Consumer<AnnotationConfigApplicationContext> customizer,
			Class<?>... components) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("test", Map.of("test.zookeeper.connect", connectString())));
		context.register(LockInfrastructure.class);
		if (components.length > 0) {
			context.register(components);
		}
		customizer.accept(context);
		this.contexts.add(context);
		context.refresh();
		return context;
	}

	@Configuration(proxyBeanMethods = false)
	@Import(ProxyConfigurationImport.class)
	static class LockInfrastructure {

		@Bean(destroyMethod = "close")
		CuratorFramework curatorFramework(org.springframework.core.env.Environment environment) {
			CuratorFramework client = CuratorFrameworkFactory.builder()
				.connectString(environment.getRequiredProperty("test.zookeeper.connect"))
				.namespace(NAMESPACE)
				.sessionTimeoutMs(5000)
				.connectionTimeoutMs(3000)
				.retryPolicy(new ExponentialBackoffRetry(100, 3, 1000))
				.build();
			client.start();
			return client;
		}

		@Bean(destroyMethod = "close")
		CuratorLocks curatorLocks(CuratorFramework client) {
			return new CuratorLocks(client, Duration.ofSeconds(5));
		}

		@Bean
		DistlockProperties distlockProperties() {
			return new DistlockProperties();
		}

	}

}
