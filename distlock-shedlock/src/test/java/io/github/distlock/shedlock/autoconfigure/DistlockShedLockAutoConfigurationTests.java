package io.github.distlock.shedlock.autoconfigure;

import java.util.Optional;

import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.Locks;
import io.github.distlock.shedlock.DistlockLockProvider;
import io.github.distlock.test.DistlockZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the ShedLock provider is auto-configured: ShedLock on the class path, distlock's
 * {@link Locks} bean present, and no {@link LockProvider} of the application's own.
 */
class DistlockShedLockAutoConfigurationTests {

	@RegisterExtension
	static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension().shared();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(DistlockAutoConfiguration.class, DistlockShedLockAutoConfiguration.class))
		.withPropertyValues("distlock.zookeeper.connect-string=" + zookeeper.get().getConnectString(),
				"distlock.zookeeper.session-timeout=3s", "distlock.zookeeper.connection-timeout=3s");

	@Test
	void providerOnDistlocksLocksWhenShedLockIsPresent() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(LockProvider.class);
			assertThat(context.getBean(LockProvider.class)).isInstanceOf(DistlockLockProvider.class);
			LockProvider provider = context.getBean(LockProvider.class);
			SimpleLock lock = provider
				.lock(new LockConfiguration(java.time.Instant.now(), "report", java.time.Duration.ofMinutes(1),
						java.time.Duration.ZERO))
				.orElseThrow();
			assertThat(context.getBean(Locks.class).heldLocks()).singleElement()
				.satisfies((held) -> assertThat(held.path().value()).isEqualTo("shedlock/report"));
			lock.unlock();
		});
	}

	@Test
	void backsOffWhenTheApplicationHasItsOwnProvider() {
		LockProvider own = (configuration) -> Optional.empty();
		this.contextRunner.withBean("ownLockProvider", LockProvider.class, () -> own).run((context) -> {
			assertThat(context).hasSingleBean(LockProvider.class);
			assertThat(context).doesNotHaveBean(DistlockLockProvider.class);
			assertThat(context.getBean(LockProvider.class)).isSameAs(own);
		});
	}

	@Test
	void noProviderWithoutShedLock() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(LockProvider.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(DistlockLockProvider.class));
	}

	@Test
	void noProviderWhenDistlockIsDisabled() {
		this.contextRunner.withPropertyValues("distlock.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(Locks.class);
			assertThat(context).doesNotHaveBean(LockProvider.class);
		});
	}

	@Test
	void registeredAfterDistlocksAutoConfiguration() {
		assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()).getCandidates())
			.contains(DistlockShedLockAutoConfiguration.class.getName());
		assertThat(DistlockShedLockAutoConfiguration.class.getAnnotation(AutoConfiguration.class).afterName())
			.containsExactly(DistlockAutoConfiguration.class.getName());
	}

}
