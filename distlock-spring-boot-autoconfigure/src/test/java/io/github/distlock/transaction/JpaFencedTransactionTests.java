package io.github.distlock.transaction;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Id;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.Table;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.orm.jpa.LocalContainerEntityManagerFactoryBean;
import org.springframework.orm.jpa.vendor.HibernateJpaVendorAdapter;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.StaleFencingTokenException;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fenced transactions under a {@link JpaTransactionManager} (Hibernate): the fence row
 * commits with the entities, on the connection the transaction manager exposes, and a
 * holder whose session ended while its transaction was open cannot commit after a newer
 * holder did. Run on H2 and on PostgreSQL by the subclasses.
 */
abstract class JpaFencedTransactionTests {

	private final FencedDatabase database = newDatabase();

	/** The contexts, on a ZooKeeper of the class. */
	abstract LockTestContexts contexts();

	/** The test's database, with empty tables. */
	abstract FencedDatabase newDatabase();

	@AfterEach
	void shutdownDatabase() {
		this.database.shutdown();
	}

	@Test
	void staleHolderUnderJpaRollsBackAndTheNewerHoldersEntityStays() throws Exception {
		AnnotationConfigApplicationContext nodeA = node();
		AnnotationConfigApplicationContext nodeB = node();
		long first = nodeB.getBean(JpaStock.class).set("oranges", 1, () -> {
		});
		assertThat(this.database.fence("mutex/stock/oranges")).isEqualTo(first);

		CountDownLatch paused = new CountDownLatch(1);
		CountDownLatch resume = new CountDownLatch(1);
		CompletableFuture<Long> writeA = CompletableFuture
			.supplyAsync(() -> nodeA.getBean(JpaStock.class).set("oranges", 2, () -> {
				paused.countDown();
				await(resume);
			}));
		assertThat(paused.await(10, TimeUnit.SECONDS)).isTrue();
		Faults.killSession(nodeA.getBean(CuratorFramework.class));
		long tokenB = nodeB.getBean(JpaStock.class).set("oranges", 3, () -> {
		});
		resume.countDown();
		assertThat(writeA).failsWithin(Duration.ofSeconds(10))
			.withThrowableOfType(ExecutionException.class)
			.havingCause()
			.isInstanceOfSatisfying(StaleFencingTokenException.class,
					(stale) -> assertThat(stale.getNewerToken()).isEqualTo(tokenB));
		assertThat(this.database.quantity("oranges")).isEqualTo(3);
		assertThat(this.database.fence("mutex/stock/oranges")).isEqualTo(tokenB);
	}

	private AnnotationConfigApplicationContext node() {
		return contexts().start(
				(context) -> context.getEnvironment()
					.getPropertySources()
					.addFirst(new MapPropertySource("node", Map.of("test.db.url", this.database.url()))),
				JpaConfiguration.class);
	}

	private static void await(CountDownLatch latch) {
		try {
			if (!latch.await(30, TimeUnit.SECONDS)) {
				throw new IllegalStateException("not resumed");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** A row of the stock table. */
	@Entity
	@Table(name = "stock")
	static class StockRow {

		@Id
		private String sku;

		@Column(name = "quantity")
		private int quantity;

		StockRow() {
		}

		StockRow(String sku, int quantity) {
			this.sku = sku;
			this.quantity = quantity;
		}

		void setQuantity(int quantity) {
			this.quantity = quantity;
		}

	}

	static class JpaStock {

		@PersistenceContext
		private EntityManager entityManager;

		@DistributedLock(value = "stock/#{#sku}", fenced = true)
		@Transactional
		public long set(String sku, int quantity, Runnable beforeWrite) {
			beforeWrite.run();
			StockRow row = this.entityManager.find(StockRow.class, sku);
			if (row == null) {
				this.entityManager.persist(new StockRow(sku, quantity));
			}
			else {
				row.setQuantity(quantity);
			}
			return LockContext.current().fencingToken();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class JpaConfiguration {

		@Bean
		DataSource dataSource(Environment environment) {
			return new DriverManagerDataSource(environment.getRequiredProperty("test.db.url"));
		}

		@Bean
		LocalContainerEntityManagerFactoryBean entityManagerFactory(DataSource dataSource) {
			LocalContainerEntityManagerFactoryBean factory = new LocalContainerEntityManagerFactoryBean();
			factory.setDataSource(dataSource);
			factory.setJpaVendorAdapter(new HibernateJpaVendorAdapter());
			factory.setManagedTypes(
					org.springframework.orm.jpa.persistenceunit.PersistenceManagedTypes.of(StockRow.class.getName()));
			factory.setJpaPropertyMap(Map.of("hibernate.hbm2ddl.auto", "none"));
			return factory;
		}

		@Bean
		JpaTransactionManager transactionManager(EntityManagerFactory entityManagerFactory, DataSource dataSource) {
			JpaTransactionManager transactionManager = new JpaTransactionManager(entityManagerFactory);
			transactionManager.setDataSource(dataSource);
			return transactionManager;
		}

		@Bean
		JpaStock jpaStock() {
			return new JpaStock();
		}

	}

}
