package io.github.distlock.integration.autoconfigure;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.support.locks.DefaultLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;

import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.Locks;
import io.github.distlock.integration.DistlockLockRegistry;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-configured {@link LockRegistry}: a {@link DistlockLockRegistry} on the
 * application's {@link Locks} when Spring Integration is present and the application has
 * no registry of its own, after distlock's own auto-configuration.
 */
class DistlockLockRegistryAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(DistlockLockRegistryAutoConfiguration.class, DistlockAutoConfiguration.class))
		.withPropertyValues("distlock.zookeeper.connect-string=" + zookeeper.connectString(),
				"distlock.zookeeper.session-timeout=5s", "distlock.zookeeper.connection-timeout=3s");

	@Test
	void registersARegistryOnTheApplicationsLocks() {
		this.runner.run((context) -> {
			assertThat(context).hasSingleBean(LockRegistry.class);
			assertThat(context.getBean(LockRegistry.class)).isInstanceOf(DistlockLockRegistry.class);
			Lock lock = context.getBean(LockRegistry.class).obtain("orders");
			assertThat(lock.tryLock(10, TimeUnit.SECONDS)).isTrue();
			try {
				assertThat(context.getBean(Locks.class).heldLocks()).singleElement()
					.satisfies((held) -> assertThat(held.path().value())
						.isEqualTo(DistlockLockRegistry.DEFAULT_ROOT + "/orders"));
				assertThat(LockContext.current().isHeld()).isTrue();
			}
			finally {
				lock.unlock();
			}
		});
	}

	@Test
	void backsOffWhenTheApplicationHasARegistryOfItsOwn() {
		this.runner.withUserConfiguration(OwnRegistry.class).run((context) -> {
			assertThat(context).hasSingleBean(LockRegistry.class);
			assertThat(context.getBean(LockRegistry.class)).isInstanceOf(DefaultLockRegistry.class);
		});
	}

	@Test
	void backsOffWithoutLocks() {
		this.runner.withPropertyValues("distlock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(LockRegistry.class));
	}

	@Test
	void backsOffWithoutSpringIntegration() {
		this.runner.withClassLoader(new FilteredClassLoader(LockRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(DistlockLockRegistry.class)
				.hasSingleBean(Locks.class));
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnRegistry {

		@Bean
		LockRegistry<Lock> lockRegistry() {
			return new DefaultLockRegistry();
		}

	}

}
