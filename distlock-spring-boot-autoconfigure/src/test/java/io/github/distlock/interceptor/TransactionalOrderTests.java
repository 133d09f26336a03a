package io.github.distlock.interceptor;

import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.autoconfigure.DistlockProperties;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the default advisor order the lock wraps {@code @Transactional}: the transaction
 * commits while the lock is still held. Ordered the other way, it would not.
 */
class TransactionalOrderTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	@Test
	void transactionCommitsBeforeTheLockIsReleased() throws Exception {
		AnnotationConfigApplicationContext context = contexts.start(TransactionConfiguration.class);
		List<String> observed = context.getBean(AccountService.class).credit(1, 10);
		assertThat(observed).containsExactly("committed: lock held by this thread, lock node present");
		assertThat(context.getBean(JdbcTemplate.class)
			.queryForObject("select balance from account where id = 1", Integer.class)).isEqualTo(10);
	}

	@Test
	void lockOrderedInsideTheTransactionIsReleasedBeforeTheCommit() throws Exception {
		AnnotationConfigApplicationContext context = contexts
			.start((ctx) -> ctx.registerBean("distlockProperties", DistlockProperties.class, () -> {
				DistlockProperties properties = new DistlockProperties();
				properties.getLock().setOrder(Ordered.LOWEST_PRECEDENCE);
				return properties;
			}, (definition) -> definition.setPrimary(true)), TransactionConfiguration.class,
					LateTransactionOrder.class);
		List<String> observed = context.getBean(AccountService.class).credit(2, 5);
		assertThat(observed).containsExactly("committed: lock not held by this thread, lock node absent");
	}

	static class AccountService {

		private final JdbcTemplate jdbc;

		private final Locks locks;

		private final CuratorFramework client;

		AccountService(JdbcTemplate jdbc, Locks locks, CuratorFramework client) {
			this.jdbc = jdbc;
			this.locks = locks;
			this.client = client;
		}

		@DistributedLock("accounts/#{#id}")
		@Transactional
		public List<String> credit(long id, int amount) {
			List<String> observed = new ArrayList<>();
			assertThat(TransactionSynchronizationManager.isActualTransactionActive()).isTrue();
			this.jdbc.update("merge into account (id, balance) key (id) values (?, ?)", id, amount);
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void afterCommit() {
					boolean held = AccountService.this.locks.mutex("accounts/" + id).isHeldByCurrentThread();
					boolean nodePresent;
					try {
						nodePresent = !AccountService.this.client.getChildren()
							.forPath("/mutex/accounts/" + id)
							.isEmpty();
					}
					catch (Exception ex) {
						nodePresent = false;
					}
					observed.add("committed: lock " + (held ? "held" : "not held") + " by this thread, lock node "
							+ (nodePresent ? "present" : "absent"));
				}

			});
			return observed;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class TransactionConfiguration {

		@Bean(destroyMethod = "shutdown")
		org.springframework.jdbc.datasource.embedded.EmbeddedDatabase dataSource() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.generateUniqueName(true)
				.addScript("classpath:io/github/distlock/interceptor/account.sql")
				.build();
		}

		@Bean
		PlatformTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		JdbcTemplate jdbcTemplate(DataSource dataSource) {
			return new JdbcTemplate(dataSource);
		}

		@Bean
		AccountService accountService(JdbcTemplate jdbc, Locks locks, CuratorFramework client) {
			return new AccountService(jdbc, locks, client);
		}

	}

	/** Puts the transaction advisor outside the lock advisor. */
	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement(order = Ordered.LOWEST_PRECEDENCE - 10)
	static class LateTransactionOrder {

	}

}
