package io.github.distlock.autoconfigure;

import java.time.Clock;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.transaction.ConfigurableTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.util.ClassUtils;

import io.github.distlock.interceptor.TransactionFencing;
import io.github.distlock.transaction.FenceTable;
import io.github.distlock.transaction.FencedTransactions;
import io.github.distlock.transaction.JdbcTransactionFencing;

/**
 * Fenced transactions on JDBC, when spring-jdbc is on the class path: the
 * {@link TransactionFencing} that {@code fenced = true} needs, added to every transaction
 * manager as a listener (but Kafka's, whose transactions the broker fences), and
 * {@link FencedTransactions} for programmatic holds. The data source and the transaction
 * manager are looked up when first needed, so that a context without them starts (and
 * refuses a fenced annotation, naming it).
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
@ConditionalOnClass(name = "org.springframework.jdbc.datasource.DataSourceUtils")
class DistlockFencingConfiguration {

	private static final String KAFKA_TRANSACTION_MANAGER = "org.springframework.kafka.transaction.KafkaAwareTransactionManager";

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean(TransactionFencing.class)
	static JdbcTransactionFencing transactionFencing(ObjectProvider<DataSource> dataSources,
			ObjectProvider<PlatformTransactionManager> transactionManagers, Environment environment) {
		// Bound from the environment, not taken from the properties bean: a transaction
		// manager may be post-processed before that bean could be, and would pull it in
		// too early (ineligible for some post-processors).
		String table = Binder.get(environment)
			.bind("distlock.fencing.table", String.class)
			.orElse(FenceTable.DEFAULT_NAME);
		return new JdbcTransactionFencing(dataSources::getIfUnique, transactionManagers::getIfUnique,
				new FenceTable(table, Clock.systemUTC()));
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static BeanPostProcessor transactionFencingRegistrar(ObjectProvider<JdbcTransactionFencing> fencing) {
		return new TransactionListenerRegistrar(fencing, DistlockFencingConfiguration::runsOnTheDatabase);
	}

	// Kafka transaction managers' transactions run on a producer, not the DataSource;
	// the broker fences them (docs/kafka.md), and the database's fence would refuse them.
	private static boolean runsOnTheDatabase(ConfigurableTransactionManager manager) {
		return ClassUtils.getAllInterfacesForClassAsSet(manager.getClass())
			.stream()
			.noneMatch((type) -> type.getName().equals(KAFKA_TRANSACTION_MANAGER));
	}

	@Bean
	@ConditionalOnMissingBean
	static FencedTransactions fencedTransactions(@Lazy PlatformTransactionManager transactionManager,
			JdbcTransactionFencing fencing) {
		return new FencedTransactions(transactionManager, fencing);
	}

}
