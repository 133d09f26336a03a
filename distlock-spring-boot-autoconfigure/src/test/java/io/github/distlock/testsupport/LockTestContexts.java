package io.github.distlock.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;

import io.github.distlock.autoconfigure.DistlockProperties;
import io.github.distlock.curator.CuratorLocks;

/**
 * Starts application contexts holding the lock proxy configuration, a
 * {@link CuratorLocks} on its own {@link CuratorFramework} (its own session: one context
 * stands for one node; both made by the {@link NodeOptions} of the server's extension;
 * asynchronous acquisitions complete on the context's {@value #APPLICATION_TASK_EXECUTOR}
 * bean if it has one) and the given components, against one ZooKeeper server for the test
 * class; closes them all at the end. Register it on a static field with
 * {@code @RegisterExtension}.
 * <p>
 * The lock proxy configuration is this module's own (advisor ordered by
 * {@link DistlockProperties}, transaction guard, fencing): the tests of that wiring use
 * it. distlock-spring's tests have a {@code LockTestContexts} of their own that wires the
 * lock annotations with plain Spring.
 */
public final class LockTestContexts
		implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

	/** Namespace of the contexts' clients by default. */
	public static final String NAMESPACE = "distlock-it";

	/**
	 * Name of the executor bean that, when a context has one, completes its node's
	 * asynchronous acquisitions, as Spring Boot's task executor does in an application.
	 */
	public static final String APPLICATION_TASK_EXECUTOR = "applicationTaskExecutor";

	private final ZooKeeperExtension zookeeper;

	private final List<AnnotationConfigApplicationContext> contexts = new ArrayList<>();

	/**
	 * Contexts on a plain server, with nodes in {@link #NAMESPACE}, of application
	 * {@code application}.
	 */
	public LockTestContexts() {
		this(new ZooKeeperExtension(
				NodeOptions.defaults().withNamespace(NAMESPACE).withApplicationName("application")));
	}

	/**
	 * Contexts on the server of the given extension, with nodes made with its options.
	 * The extension is driven by this one: do not register it too.
	 */
	public LockTestContexts(ZooKeeperExtension zookeeper) {
		this.zookeeper = zookeeper;
	}

	@Override
	public void beforeAll(ExtensionContext context) throws Exception {
		this.zookeeper.beforeAll(context);
	}

	@Override
	public void beforeEach(ExtensionContext context) throws Exception {
		this.zookeeper.beforeEach(context);
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		this.zookeeper.afterEach(context);
	}

	@Override
	public void afterAll(ExtensionContext context) throws Exception {
		try {
			this.contexts.forEach(AnnotationConfigApplicationContext::close);
		}
		finally {
			this.zookeeper.afterAll(context);
		}
	}

	/** The ZooKeeper server all contexts of the test class connect to, and its nodes. */
	public ZooKeeperExtension zookeeper() {
		return this.zookeeper;
	}

	/** The ZooKeeper server all contexts of the test class connect to. */
	public TestingServer server() {
		return this.zookeeper.server();
	}

	public String connectString() {
		return this.zookeeper.connectString();
	}

	public AnnotationConfigApplicationContext start(Class<?>... components) {
		return start((context) -> {
		}, components);
	}

	/**
	 * Start a context.
	 * @param customizer called before the context is refreshed
	 * @param components component classes to register
	 */
	public AnnotationConfigApplicationContext start(Consumer<AnnotationConfigApplicationContext> customizer,
			Class<?>... components) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("test", Map.of("test.zookeeper.connect", connectString())));
		context.registerBean(NodeOptions.class, this.zookeeper::options);
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
		CuratorFramework curatorFramework(NodeOptions options, Environment environment) {
			return options.startClient(environment.getRequiredProperty("test.zookeeper.connect"));
		}

		@Bean(destroyMethod = "close")
		CuratorLocks curatorLocks(NodeOptions options, CuratorFramework client,
				@Qualifier(APPLICATION_TASK_EXECUTOR) ObjectProvider<Executor> executor) {
			Executor applicationExecutor = executor.getIfAvailable();
			return (applicationExecutor != null) ? options.createLocks(client, applicationExecutor)
					: options.createLocks(client);
		}

		@Bean
		DistlockProperties distlockProperties() {
			return new DistlockProperties();
		}

	}

}
