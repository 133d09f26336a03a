package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import io.r2dbc.h2.H2ConnectionFactory;
import io.r2dbc.spi.ConnectionFactory;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.autoconfigure.DistlockProperties;
import io.github.distlock.testsupport.LockTestContexts;

import io.github.distlock.core.ReactiveLockContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the default advisor order the lock wraps a reactive {@code @Transactional} (R2DBC
 * on H2): the transaction commits while the pipeline still holds the lock. Ordered the
 * other way, it would not.
 */
class ReactiveTransactionalOrderTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	@Test
	void reactiveTransactionCommitsBeforeTheLockIsReleased() {
		AnnotationConfigApplicationContext context = contexts.start(ReactiveTransactionConfiguration.class);
		List<String> observed = context.getBean(ReactiveAccountService.class)
			.credit(1, 10)
			.block(Duration.ofSeconds(10));
		assertThat(observed).containsExactly("committed: lock held by this pipeline, lock node present");
		assertThat(balance(context, 1)).isEqualTo(10);
	}

	@Test
	void lockOrderedInsideTheReactiveTransactionIsReleasedBeforeTheCommit() {
		AnnotationConfigApplicationContext context = contexts
			.start((ctx) -> ctx.registerBean("distlockProperties", DistlockProperties.class, () -> {
				DistlockProperties properties = new DistlockProperties();
				properties.getLock().setOrder(Ordered.LOWEST_PRECEDENCE);
				return properties;
			}, (definition) -> definition.setPrimary(true)), ReactiveTransactionConfiguration.class,
					LateTransactionOrder.class);
		List<String> observed = context.getBean(ReactiveAccountService.class)
			.credit(2, 5)
			.block(Duration.ofSeconds(10));
		assertThat(observed).containsExactly("committed: lock not held by this pipeline, lock node absent");
		assertThat(balance(context, 2)).isEqualTo(5);
	}

	private static Integer balance(AnnotationConfigApplicationContext context, long id) {
		return context.getBean(DatabaseClient.class)
			.sql("select balance from account where id = :id")
			.bind("id", id)
			.map((row) -> row.get("balance", Integer.class))
			.one()
			.block(Duration.ofSeconds(10));
	}

	static class ReactiveAccountService {

		private final DatabaseClient database;

		private final CuratorFramework client;

		ReactiveAccountService(DatabaseClient database, CuratorFramework client) {
			this.database = database;
			this.client = client;
		}

		@DistributedLock("accounts/#{#id}")
		@Transactional
		public Mono<List<String>> credit(long id, int amount) {
			List<String> observed = new CopyOnWriteArrayList<>();
			return TransactionSynchronizationManager.forCurrentTransaction()
				.doOnNext((transaction) -> transaction.registerSynchronization(new TransactionSynchronization() {

					@Override
					public Mono<Void> afterCommit() {
						return ReactiveLockContext.current().doOnNext((lock) -> {
							boolean nodePresent;
							try {
								nodePresent = !ReactiveAccountService.this.client.getChildren()
									.forPath("/mutex/accounts/" + id)
									.isEmpty();
							}
							catch (Exception ex) {
								nodePresent = false;
							}
							observed.add("committed: lock " + (lock.isHeld() ? "held" : "not held")
									+ " by this pipeline, lock node " + (nodePresent ? "present" : "absent"));
						}).then();
					}

				}))
				.then(this.database.sql("merge into account (id, balance) key (id) values (:id, :balance)")
					.bind("id", id)
					.bind("balance", amount)
					.fetch()
					.rowsUpdated())
				.thenReturn(observed);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class ReactiveTransactionConfiguration {

		@Bean
		ConnectionFactory connectionFactory() {
			return H2ConnectionFactory.inMemory("distlock-" + UUID.randomUUID());
		}

		@Bean
		ReactiveTransactionManager transactionManager(ConnectionFactory connectionFactory) {
			return new R2dbcTransactionManager(connectionFactory);
		}

		@Bean
		DatabaseClient databaseClient(ConnectionFactory connectionFactory) {
			DatabaseClient database = DatabaseClient.create(connectionFactory);
			database.sql("create table account (id bigint primary key, balance int not null)")
				.then()
				.block(Duration.ofSeconds(10));
			return database;
		}

		@Bean
		ReactiveAccountService reactiveAccountService(DatabaseClient database, CuratorFramework client) {
			return new ReactiveAccountService(database, client);
		}

	}

	/** Puts the transaction advisor outside the lock advisor. */
	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(order = Ordered.LOWEST_PRECEDENCE - 10)
	static class LateTransactionOrder {

	}

}
