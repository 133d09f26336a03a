package io.github.distlock.autoconfigure;

import java.time.Clock;

import io.r2dbc.spi.ConnectionFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.transaction.ReactiveTransactionManager;

import io.github.distlock.interceptor.ReactiveTransactionFencing;
import io.github.distlock.transaction.FenceTable;
import io.github.distlock.transaction.FencedReactiveTransactions;
import io.github.distlock.transaction.R2dbcTransactionFencing;

/**
 * Fenced reactive transactions on R2DBC, when spring-r2dbc is on the class path: the
 * {@link ReactiveTransactionFencing} that {@code fenced = true} on a reactive method
 * needs, and {@link FencedReactiveTransactions} for programmatic holds. The connection
 * factory and the reactive transaction manager are looked up when first needed, so that a
 * context without them starts (and refuses a fenced reactive method, naming it).
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
@ConditionalOnClass(name = { "org.springframework.r2dbc.connection.ConnectionFactoryUtils",
		"io.r2dbc.spi.ConnectionFactory", "reactor.core.publisher.Mono" })
class DistlockReactiveFencingConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean(ReactiveTransactionFencing.class)
	static R2dbcTransactionFencing reactiveTransactionFencing(ObjectProvider<ConnectionFactory> connectionFactories,
			ObjectProvider<ReactiveTransactionManager> transactionManagers, Environment environment) {
		// Bound from the environment, as for JDBC: not the properties bean, too early.
		String table = Binder.get(environment)
			.bind("distlock.fencing.table", String.class)
			.orElse(FenceTable.DEFAULT_NAME);
		return new R2dbcTransactionFencing(connectionFactories::getIfUnique, transactionManagers::getIfUnique,
				new FenceTable(table, Clock.systemUTC()));
	}

	@Bean
	@ConditionalOnMissingBean
	static FencedReactiveTransactions fencedReactiveTransactions(R2dbcTransactionFencing fencing) {
		return new FencedReactiveTransactions(fencing);
	}

}
