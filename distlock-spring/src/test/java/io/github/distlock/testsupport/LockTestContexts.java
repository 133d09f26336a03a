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

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.type.AnnotationMetadata;

import io.github.distlock.core.Locks;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.interceptor.AnnotationLockOperationSource;
import io.github.distlock.interceptor.LockInterceptor;
import io.github.distlock.interceptor.LockOperationSource;
import io.github.distlock.interceptor.OperationSourceAdvisor;

/**
 * Starts application contexts holding the lock annotations' infrastructure, a
 * {@link CuratorLocks} on its own {@link CuratorFramework} (its own session: one context
 * stands for one node; both made by the {@link NodeOptions} of the server's extension;
 * asynchronous acquisitions complete on the context's {@value #APPLICATION_TASK_EXECUTOR}
 * bean if it has one) and the given components, against one ZooKeeper server for the test
 * class; closes them all at the end. Register it on a static field with
 * {@code @RegisterExtension}.
 * <p>
 * The infrastructure is plain Spring, as an application without Spring Boot declares it:
 * an {@link AnnotationLockOperationSource}, a {@link LockInterceptor} and their
 * {@link OperationSourceAdvisor} (ordered just inside the lowest precedence, as the
 * auto-configuration orders it by default), and Spring's infrastructure auto-proxy
 * creator unless the context registers a stronger one. The auto-configuration's own
 * wiring of these beans is tested in the autoconfigure module.
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

	/** Order of the lock advisor: inside {@code @Transactional} and other advice. */
	static final int ADVISOR_ORDER = Ordered.LOWEST_PRECEDENCE - 1;

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

	/**
	 * Start a context holding the lock annotations' infrastructure, on a lock API the
	 * caller made, and the given components; not closed by an extension: the caller
	 * closes it, and the lock API with it.
	 * @param locks the node's lock API
	 * @param customizer called before the context is refreshed
	 * @param components component classes to register
	 * @return the refreshed context
	 */
	public static AnnotationConfigApplicationContext startOn(Locks locks,
			Consumer<AnnotationConfigApplicationContext> customizer, Class<?>... components) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		context.registerBean(Locks.class, () -> locks);
		context.register(AnnotationInfrastructure.class);
		if (components.length > 0) {
			context.register(components);
		}
		customizer.accept(context);
		context.refresh();
		return context;
	}

	@Configuration(proxyBeanMethods = false)
	@Import(AnnotationInfrastructure.class)
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

	}

	/** The interceptor, its operation source and advisor, and the auto-proxy creator. */
	@Configuration(proxyBeanMethods = false)
	@Import(AutoProxyCreatorRegistrar.class)
	static class AnnotationInfrastructure {

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static LockOperationSource lockOperationSource() {
			return new AnnotationLockOperationSource();
		}

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static LockInterceptor lockInterceptor(LockOperationSource lockOperationSource, ObjectProvider<Locks> locks) {
			return new LockInterceptor(lockOperationSource, locks::getObject);
		}

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static OperationSourceAdvisor lockOperationSourceAdvisor(LockOperationSource lockOperationSource,
				LockInterceptor lockInterceptor) {
			OperationSourceAdvisor advisor = new OperationSourceAdvisor(lockOperationSource, lockInterceptor);
			advisor.setOrder(ADVISOR_ORDER);
			return advisor;
		}

	}

	/**
	 * Registers Spring's infrastructure auto-proxy creator unless a stronger one is
	 * registered already.
	 */
	static class AutoProxyCreatorRegistrar implements ImportBeanDefinitionRegistrar {

		@Override
		public void registerBeanDefinitions(AnnotationMetadata importingClassMetadata,
				BeanDefinitionRegistry registry) {
			AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
		}

	}

}
