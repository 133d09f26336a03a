package io.github.distlock.test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

import io.github.distlock.relay.TcpRelay;

/**
 * Points a test's application context at a {@link TestZooKeeper} through a relay of its
 * own, and registers the kit's beans. Equal for equal session timeouts, so that Spring's
 * test context cache shares contexts as usual.
 */
final class DistlockZooKeeperContextCustomizer implements ContextCustomizer {

	/** Name of the property source the kit adds first. */
	static final String PROPERTY_SOURCE_NAME = "distlockTestZooKeeper";

	/** One server per session timeout for the whole JVM, stopped when it exits. */
	private static final Map<Duration, TestZooKeeper> servers = new ConcurrentHashMap<>();

	private final Duration sessionTimeout;

	DistlockZooKeeperContextCustomizer(Duration sessionTimeout) {
		this.sessionTimeout = sessionTimeout;
	}

	static TestZooKeeper server(Duration sessionTimeout) {
		return servers.computeIfAbsent(sessionTimeout, (timeout) -> {
			TestZooKeeper server = TestZooKeeper.start(timeout);
			Runtime.getRuntime().addShutdownHook(new Thread(server::close, "distlock-test-zookeeper-shutdown"));
			return server;
		});
	}

	@Override
	public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
		TestZooKeeper zooKeeper = server(this.sessionTimeout);
		TcpRelay relay = new TcpRelay(zooKeeper.getPort());
		context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource(PROPERTY_SOURCE_NAME,
					DistlockZooKeeperProperties.of(relay.getConnectString(), this.sessionTimeout)));
		DistlockNode node = zooKeeper.contextNode(context, relay);
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		beanFactory.registerSingleton("distlockTestZooKeeper", zooKeeper);
		beanFactory.registerSingleton("distlockNode", node);
		RecorderRegistrar.register(context, new LockRecorder(node.getName(), null));
		context.addApplicationListener((event) -> {
			if (event instanceof ContextClosedEvent closed && closed.getApplicationContext() == context) {
				node.markClosed();
				relay.close();
			}
		});
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof DistlockZooKeeperContextCustomizer customizer
				&& customizer.sessionTimeout.equals(this.sessionTimeout);
	}

	@Override
	public int hashCode() {
		return this.sessionTimeout.hashCode();
	}

}
