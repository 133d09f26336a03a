package io.github.distlock.transaction;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import javax.sql.DataSource;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.WriteLock;
import io.github.distlock.autoconfigure.DistlockProperties;
import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.LockState;
import io.github.distlock.core.Locks;
import io.github.distlock.core.MultiLockHandle;
import io.github.distlock.core.StaleFencingTokenException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Fenced transactions on a real database and a real ZooKeeper: a holder that lost its
 * lock without knowing it cannot commit after a newer holder did, and rightful holders
 * (re-entries, downgrades, every path of a multi-lock) commit. Run on H2 and on
 * PostgreSQL by the subclasses, with SQL both run.
 */
abstract class FencedTransactionTests {

	private final FencedDatabase database = newDatabase();

	/**
	 * The contexts, on a ZooKeeper whose sessions outlast a test's relay pause (a node
	 * cut off notices it after two thirds of its session timeout).
	 */
	abstract LockTestContexts contexts();

	/** The test's database, with empty tables. */
	abstract FencedDatabase newDatabase();

	@AfterEach
	void shutdownDatabase() {
		this.database.shutdown();
	}

	@Test
	void holderThatLostItsLockWithoutKnowingCannotCommitAfterANewerHolder() throws Exception {
		try (TcpRelay relay = new TcpRelay(contexts().server().getPort())) {
			AnnotationConfigApplicationContext nodeA = node(relay.getConnectString(), (properties) -> {
			});
			AnnotationConfigApplicationContext nodeB = node(contexts().connectString(), (properties) -> {
			});
			CountDownLatch paused = new CountDownLatch(1);
			CountDownLatch resume = new CountDownLatch(1);
			LockHandle[] heldByA = new LockHandle[1];
			CompletableFuture<Long> writeA = CompletableFuture
				.supplyAsync(() -> nodeA.getBean(StockService.class).set("apples", 1, () -> {
					heldByA[0] = LockContext.current().locks().get(0);
					assertThat(heldByA[0].state()).isEqualTo(LockState.HELD);
					paused.countDown();
					await(resume);
				}));
			assertThat(paused.await(10, TimeUnit.SECONDS)).isTrue();

			// A is cut off and its session ends on the server: its lock node is gone.
			// Whether A's client hears of it before A commits does not matter: the
			// fence is checked first.
			relay.pause();
			Faults.killSession(nodeA.getBean(CuratorFramework.class), contexts().connectString());
			long tokenB = nodeB.getBean(StockService.class).set("apples", 2, () -> {
			});

			assertThat(tokenB).isGreaterThan(heldByA[0].fencingToken());
			resume.countDown();
			assertThat(writeA).failsWithin(Duration.ofSeconds(10))
				.withThrowableOfType(java.util.concurrent.ExecutionException.class)
				.havingCause()
				.isInstanceOfSatisfying(StaleFencingTokenException.class, (stale) -> {
					assertThat(stale.getPath()).isEqualTo(LockPath.of("stock/apples"));
					assertThat(stale.getToken()).isEqualTo(heldByA[0].fencingToken());
					assertThat(stale.getNewerToken()).isEqualTo(tokenB);
					assertThat(stale).hasMessageContaining("StockService.set")
						.hasMessageContaining("mutex/stock/apples");
				});
			assertThat(this.database.quantity("apples")).isEqualTo(2);
			assertThat(this.database.fence("mutex/stock/apples")).isEqualTo(tokenB);
			relay.resume();
		}
	}

	@Test
	void holderRemovedByAForcedReleaseCannotCommitAndItsFenceIsAdvancedBeforeAnyoneTakesTheLock() throws Exception {
		AnnotationConfigApplicationContext nodeA = node(contexts().connectString(), (properties) -> {
		});
		AnnotationConfigApplicationContext admin = node(contexts().connectString(), (properties) -> {
		});
		CountDownLatch paused = new CountDownLatch(1);
		CountDownLatch resume = new CountDownLatch(1);
		LockHandle[] heldByA = new LockHandle[1];
		CompletableFuture<Long> writeA = CompletableFuture
			.supplyAsync(() -> nodeA.getBean(StockService.class).set("cherries", 1, () -> {
				heldByA[0] = LockContext.current().locks().get(0);
				paused.countDown();
				await(resume);
			}));
		assertThat(paused.await(10, TimeUnit.SECONDS)).isTrue();
		long tokenA = heldByA[0].fencingToken();
		// The test contexts make their locks themselves; the auto-configuration
		// registers the fence table so (DistlockAutoConfigurationTests).
		CuratorLocks locks = admin.getBean(CuratorLocks.class);
		locks.addFenceStore(admin.getBean(JdbcTransactionFencing.class));
		locks.admin().forceRelease(LockPath.of("stock/cherries"), LockProtocol.MUTEX, tokenA);
		// Fenced before the node was deleted, with no newer holder yet.
		assertThat(this.database.fence("mutex/stock/cherries")).isEqualTo(tokenA + 1);
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(20))
			.until(() -> heldByA[0].state() == LockState.LOST);
		resume.countDown();
		assertThat(writeA).failsWithin(Duration.ofSeconds(10))
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.havingCause()
			.isInstanceOf(DistributedLockException.class);
		assertThat(this.database.quantity("cherries")).isNull();
		// The next holder's token is past the fence: it commits.
		long tokenB = admin.getBean(StockService.class).set("cherries", 2, () -> {
		});
		assertThat(tokenB).isGreaterThan(tokenA + 1);
		assertThat(this.database.quantity("cherries")).isEqualTo(2);
	}

	@Test
	void successiveHoldersCommitAndAdvanceTheFence() {
		StockService stock = node(contexts().connectString(), (properties) -> {
		}).getBean(StockService.class);
		long first = stock.set("pears", 1, () -> {
		});
		assertThat(this.database.fence("mutex/stock/pears")).isEqualTo(first);
		long second = stock.set("pears", 2, () -> {
		});
		assertThat(second).isGreaterThan(first);
		assertThat(this.database.fence("mutex/stock/pears")).isEqualTo(second);
		assertThat(this.database.quantity("pears")).isEqualTo(2);
	}

	@Test
	void reentrantCallInItsOwnTransactionCommitsWithTheOuterToken() {
		StockService stock = node(contexts().connectString(), (properties) -> {
		}).getBean(StockService.class);
		List<Long> tokens = stock.setTwice("plums", 3);
		assertThat(tokens.get(1)).as("token seen by the re-entry").isEqualTo(tokens.get(0));
		assertThat(this.database.fence("mutex/stock/plums")).isEqualTo(tokens.get(0));
		assertThat(this.database.quantity("plums")).isEqualTo(3);
		assertThat(this.database.quantity("plums-inner")).isEqualTo(3);
	}

	@Test
	void multiLockFencesEveryPath() {
		StockService stock = node(contexts().connectString(), (properties) -> {
		}).getBean(StockService.class);
		Map<String, Long> tokens = stock.setAll(List.of("figs", "kiwis"), 5);
		assertThat(this.database.fence("mutex/stock/figs")).isEqualTo(tokens.get("stock/figs"));
		assertThat(this.database.fence("mutex/stock/kiwis")).isEqualTo(tokens.get("stock/kiwis"));

		// A newer holder of one path committed: the whole transaction rolls back.
		this.database.jdbc()
			.update("update distlock_fence set token = ? where lock_path = ?", Long.MAX_VALUE - 1, "mutex/stock/kiwis");
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> stock.setAll(List.of("figs", "kiwis"), 6))
			.satisfies((stale) -> assertThat(stale.getPath()).isEqualTo(LockPath.of("stock/kiwis")));
		assertThat(this.database.quantity("figs")).isEqualTo(5);
		assertThat(this.database.quantity("kiwis")).isEqualTo(5);
	}

	@Test
	void downgradedReadInsideAFencedWriteFencesWithTheWriteToken() {
		StockService stock = node(contexts().connectString(), (properties) -> {
		}).getBean(StockService.class);
		List<Long> tokens = stock.writeThenRead("limes", 7);
		assertThat(tokens.get(1)).as("token of the downgraded read").isEqualTo(tokens.get(0));
		assertThat(this.database.fence("rw/shelf/limes")).isEqualTo(tokens.get(0));
		assertThat(this.database.quantity("limes")).isEqualTo(7);
	}

	@Test
	void methodThatThrowsRollsBackAndLeavesTheFenceAsItWas() {
		StockService stock = node(contexts().connectString(), (properties) -> {
		}).getBean(StockService.class);
		long committed = stock.set("dates", 1, () -> {
		});
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> stock.failing("dates", 2));
		assertThat(this.database.fence("mutex/stock/dates")).isEqualTo(committed);
		assertThat(this.database.quantity("dates")).isEqualTo(1);
	}

	@Test
	void fencedCallWithoutATransactionFailsSayingItsWritesWereNotFenced() {
		StockService stock = node(contexts().connectString(), (properties) -> {
		}).getBean(StockService.class);
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> stock.withoutTransaction("grapes"))
			.withMessageContaining("StockService.withoutTransaction(String)")
			.withMessageContaining("no transaction ran in the call");
	}

	@Test
	void missingFenceTableIsNamedAtFirstUse() {
		StockService stock = node(contexts().connectString(),
				(properties) -> properties.getFencing().setTable("no_such_fence"))
			.getBean(StockService.class);
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> stock.set("cherries", 1, () -> {
		}))
			.withMessageContaining("Fence table 'no_such_fence' does not exist")
			.withMessageContaining("docs/failure-model.md#the-fence-table");
		assertThat(this.database.quantity("cherries")).isNull();
	}

	@Test
	void programmaticHoldFencesItsTransaction() {
		AnnotationConfigApplicationContext node = node(contexts().connectString(), (properties) -> {
		});
		FencedTransactions fenced = node.getBean(FencedTransactions.class);
		JdbcTemplate jdbc = node.getBean(JdbcTemplate.class);
		Locks locks = node.getBean(Locks.class);
		try (LockHandle handle = locks.mutex("stock/melons").acquire(Duration.ofSeconds(5))) {
			fenced.execute(handle,
					(status) -> jdbc.update("insert into stock (sku, quantity) values (?, ?)", "melons", 4));
			assertThat(this.database.fence("mutex/stock/melons")).isEqualTo(handle.fencingToken());
		}
		this.database.jdbc()
			.update("update distlock_fence set token = token + 1000000 where lock_path = ?", "mutex/stock/melons");
		try (MultiLockHandle handle = locks.multi(List.of(locks.mutex("stock/melons"), locks.mutex("stock/lemons")))
			.acquire(Duration.ofSeconds(5))) {
			assertThatExceptionOfType(StaleFencingTokenException.class).isThrownBy(() -> fenced.execute(handle,
					(status) -> jdbc.update("update stock set quantity = 9 where sku = 'melons'")));
		}
		assertThat(this.database.quantity("melons")).isEqualTo(4);
	}

	@Test
	void fencedAnnotationWithoutADataSourceIsRefusedAtStartup() {
		assertThatThrownBy(() -> contexts().start(NoDatabaseConfiguration.class))
			.isInstanceOf(BeanCreationException.class)
			.rootCause()
			.isInstanceOf(LockConfigurationException.class)
			.hasMessageContaining("@DistributedLock(\"orders/#{#id}\") on FencedTransactionTests.Orders.ship(long)")
			.hasMessageContaining("fenced = true")
			.hasMessageContaining("no single (or primary) DataSource and no PlatformTransactionManager");
	}

	@Test
	void fencedAsynchronousMethodIsRefusedAtStartup() {
		assertThatThrownBy(() -> contexts().start(AsyncConfiguration.class)).isInstanceOf(BeanCreationException.class)
			.rootCause()
			.isInstanceOf(LockConfigurationException.class)
			.hasMessageContaining(
					"@DistributedLock(\"orders/#{#id}\") on FencedTransactionTests.AsyncOrders.ship(long)")
			.hasMessageContaining("fenced = true, but the method returns a CompletionStage");
	}

	private AnnotationConfigApplicationContext node(String connectString, Consumer<DistlockProperties> properties) {
		DistlockProperties distlock = new DistlockProperties();
		properties.accept(distlock);
		return contexts().start((context) -> {
			// Environment and properties bean agree, as Boot's binding makes them.
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("node", Map.of("test.zookeeper.connect", connectString, "test.db.url",
						this.database.url(), "distlock.fencing.table", distlock.getFencing().getTable())));
			context.registerBean("distlockProperties", DistlockProperties.class, () -> distlock,
					(definition) -> definition.setPrimary(true));
		}, FencedConfiguration.class);
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

	static class StockService {

		private final JdbcTemplate jdbc;

		private final InnerStock inner;

		StockService(JdbcTemplate jdbc, InnerStock inner) {
			this.jdbc = jdbc;
			this.inner = inner;
		}

		@DistributedLock(value = "stock/#{#sku}", fenced = true)
		@Transactional
		public long set(String sku, int quantity, Runnable beforeWrite) {
			// A paused holder must not hold the row's lock meanwhile: the newer
			// holder's write would wait for it.
			beforeWrite.run();
			FencedDatabase.write(this.jdbc, sku, quantity);
			return LockContext.current().fencingToken();
		}

		@DistributedLock(value = "stock/#{#sku}", fenced = true)
		@Transactional
		public List<Long> setTwice(String sku, int quantity) {
			FencedDatabase.write(this.jdbc, sku, quantity);
			return List.of(LockContext.current().fencingToken(), this.inner.reenter(sku, quantity));
		}

		@DistributedLock(value = "stock/#{#skus}", fenced = true)
		@Transactional
		public Map<String, Long> setAll(List<String> skus, int quantity) {
			for (String sku : skus) {
				FencedDatabase.write(this.jdbc, sku, quantity);
			}
			Map<String, Long> tokens = new java.util.HashMap<>();
			for (LockHandle handle : LockContext.current().locks()) {
				tokens.put(handle.path().toString(), handle.fencingToken());
			}
			return tokens;
		}

		@WriteLock(value = "shelf/#{#sku}", fenced = true)
		public List<Long> writeThenRead(String sku, int quantity) {
			return List.of(LockContext.current().fencingToken(), this.inner.readAndWrite(sku, quantity));
		}

		@DistributedLock(value = "stock/#{#sku}", fenced = true)
		@Transactional
		public void failing(String sku, int quantity) {
			FencedDatabase.write(this.jdbc, sku, quantity);
			throw new IllegalStateException("refused by the method after its write");
		}

		@DistributedLock(value = "stock/#{#sku}", fenced = true)
		public void withoutTransaction(String sku) {
			FencedDatabase.write(this.jdbc, sku, 1);
		}

	}

	static class InnerStock {

		private final JdbcTemplate jdbc;

		InnerStock(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@DistributedLock(value = "stock/#{#sku}", fenced = true)
		@Transactional(propagation = Propagation.REQUIRES_NEW)
		public long reenter(String sku, int quantity) {
			FencedDatabase.write(this.jdbc, sku + "-inner", quantity);
			return LockContext.current().fencingToken();
		}

		@ReadLock("shelf/#{#sku}")
		@Transactional
		public long readAndWrite(String sku, int quantity) {
			FencedDatabase.write(this.jdbc, sku, quantity);
			return LockContext.current().fencingToken();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class FencedConfiguration {

		@Bean
		DataSource dataSource(Environment environment) {
			return new org.springframework.jdbc.datasource.DriverManagerDataSource(
					environment.getRequiredProperty("test.db.url"));
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
		InnerStock innerStock(JdbcTemplate jdbc) {
			return new InnerStock(jdbc);
		}

		@Bean
		StockService stockService(JdbcTemplate jdbc, InnerStock inner) {
			return new StockService(jdbc, inner);
		}

	}

	static class Orders {

		@DistributedLock(value = "orders/#{#id}", fenced = true)
		public void ship(long id) {
		}

	}

	static class AsyncOrders {

		@DistributedLock(value = "orders/#{#id}", fenced = true)
		public CompletableFuture<Void> ship(long id) {
			return CompletableFuture.completedFuture(null);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AsyncConfiguration {

		@Bean
		AsyncOrders asyncOrders() {
			return new AsyncOrders();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NoDatabaseConfiguration {

		@Bean
		Orders orders() {
			return new Orders();
		}

	}

}
