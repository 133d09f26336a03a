package io.github.distlock.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizationAutoConfiguration;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.ConfigurableTransactionManager;
import org.springframework.transaction.TransactionExecutionListener;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.curator.CuratorLocks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The transaction guard reaches the transaction manager Spring Boot auto-configures
 * (through its {@code TransactionExecutionListener} support) exactly once, stays away
 * without spring-tx, and the connection-loss policy property reaches the locks.
 */
class DistlockTransactionConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DistlockAutoConfiguration.class, DataSourceAutoConfiguration.class,
				DataSourceTransactionManagerAutoConfiguration.class,
				TransactionManagerCustomizationAutoConfiguration.class))
		.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.1:1",
				"spring.datasource.url=jdbc:h2:mem:guard;DB_CLOSE_DELAY=-1");

	@Test
	void autoConfiguredTransactionManagerGetsTheGuardOnce() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(DistlockTransactionConfiguration.LockHeldBeforeCommit.class);
			ConfigurableTransactionManager manager = context.getBean(JdbcTransactionManager.class);
			assertThat(manager.getTransactionExecutionListeners())
				.containsOnlyOnce(context.getBean(DistlockTransactionConfiguration.LockHeldBeforeCommit.class));
		});
	}

	@Test
	void withoutSpringTxThereIsNoGuard() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DistlockAutoConfiguration.class))
			.withPropertyValues("distlock.zookeeper.connect-string=127.0.0.1:1")
			.withClassLoader(new FilteredClassLoader(TransactionExecutionListener.class))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(DistlockTransactionConfiguration.LockHeldBeforeCommit.class);
			});
	}

	@Test
	void connectionLossPolicyPropertyReachesTheLocks() {
		this.contextRunner.run((context) -> assertThat(context.getBean(CuratorLocks.class).connectionLossPolicy())
			.isEqualTo(ConnectionLossPolicy.SUSPENDED));
		this.contextRunner.withPropertyValues("distlock.lock.connection-loss-policy=lost")
			.run((context) -> assertThat(context.getBean(CuratorLocks.class).connectionLossPolicy())
				.isEqualTo(ConnectionLossPolicy.LOST));
	}

}
