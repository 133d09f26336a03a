package io.github.distlock.transaction;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.r2dbc.spi.ConnectionFactory;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.connection.init.ResourceDatabasePopulator;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.ReactiveTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.Locks;
import io.github.distlock.core.ReactiveLockContext;
import io.github.distlock.core.StaleFencingTokenException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Fenced reactive transactions (R2DBC) on a real database and a real ZooKeeper: the
 * annotation on {@code Mono} and {@code Flux} methods with {@code @Transactional} on an
 * {@code R2dbcTransactionManager}, and {@link FencedReactiveTransactions} for a
 * programmatic hold. A holder that lost its lock without knowing it cannot commit after a
 * newer holder did; rightful holders commit. Run on H2 and on PostgreSQL by the
 * subclasses; each test uses rows of its own.
 */
abstract class ReactiveFencedTransactionTests {

	static final Duration WAIT = Duration.ofSeconds(30);

	/** The contexts, on a ZooKeeper whose sessions outlast a test's relay pause. */
	abstract LockTestContexts contexts();

	/** A new connection factory on the class's database, as one node has. */
	abstract ConnectionFactory connectionFactory();

	/** The database's name, for messages. */
	abstract String databaseName();

	private DatabaseClient database() {
		return DatabaseClient.create(connectionFactory());
	}

	void createTables() {
		ConnectionFactory connectionFactory = connectionFactory();
		new ResourceDatabasePopulator(
				new ClassPathResource("io/github/distlock/transaction/schema-" + databaseName().toLowerCase() + ".sql"))
			.populate(connectionFactory)
			.block(WAIT);
		DatabaseClient.create(connectionFactory)
			.sql("create table if not exists stock (sku varchar(64) primary key, quantity int not null)")
			.then()
			.block(WAIT);
	}

	private void insertStock(String sku, int quantity) {
		database().sql("insert into stock (sku, quantity) values (:sku, :quantity)")
			.bind("sku", sku)
			.bind("quantity", quantity)
			.then()
			.block(WAIT);
	}

	private @Nullable Integer quantity(String sku) {
		return database().sql("select quantity from stock where sku = :sku")
			.bind("sku", sku)
			.map((row) -> row.get(0, Integer.class))
			.one()
			.block(WAIT);
	}

	@Nullable Long fence(String key) {
		return database().sql("select token from distlock_fence where lock_path = :key")
			.bind("key", key)
			.map((row) -> row.get(0, Long.class))
			.one()
			.block(WAIT);
	}

	@Test
	void holderThatLostItsLockWithoutKnowingCannotCommitAfterANewerHolder() throws Exception {
		insertStock("apples", 0);
		try (TcpRelay relay = new TcpRelay(contexts().server().getPort())) {
			AnnotationConfigApplicationContext nodeA = node(relay.getConnectString());
			AnnotationConfigApplicationContext nodeB = node(contexts().connectString());
			CountDownLatch paused = new CountDownLatch(1);
			CompletableFuture<Void> resume = new CompletableFuture<>();
			CompletableFuture<Long> writeA = nodeA.getBean(ReactiveStock.class)
				.set("apples", 1, Mono.fromRunnable(paused::countDown).then(Mono.fromFuture(resume)))
				.toFuture();
			assertThat(paused.await(10, TimeUnit.SECONDS)).isTrue();

			// A's process stands still past its session: the session ends on the server
			// and B takes the lock and commits while A's transaction is open.
			relay.pause();
			Faults.killSession(nodeA.getBean(CuratorFramework.class), contexts().connectString());
			long tokenB = nodeB.getBean(ReactiveStock.class).set("apples", 2, Mono.empty()).block(WAIT);

			resume.complete(null);
			assertThat(writeA).failsWithin(WAIT)
				.withThrowableOfType(java.util.concurrent.ExecutionException.class)
				.havingCause()
				.isInstanceOfSatisfying(StaleFencingTokenException.class, (stale) -> {
					assertThat(stale.getPath()).isEqualTo(LockPath.of("stock/apples"));
					assertThat(stale.getToken()).isLessThan(tokenB);
					assertThat(stale.getNewerToken()).isEqualTo(tokenB);
					assertThat(stale).hasMessageContaining("ReactiveStock.set")
						.hasMessageContaining("mutex/stock/apples");
				});
			assertThat(quantity("apples")).isEqualTo(2);
			assertThat(fence("mutex/stock/apples")).isEqualTo(tokenB);
			relay.resume();
		}
	}

	@Test
	void holderRemovedByAForcedReleaseCannotCommit() throws Exception {
		insertStock("cherries", 0);
		AnnotationConfigApplicationContext nodeA = node(contexts().connectString());
		AnnotationConfigApplicationContext admin = node(contexts().connectString());
		CountDownLatch paused = new CountDownLatch(1);
		CompletableFuture<Void> resume = new CompletableFuture<>();
		CompletableFuture<Long> writeA = nodeA.getBean(ReactiveStock.class)
			.set("cherries", 1, Mono.fromRunnable(paused::countDown).then(Mono.fromFuture(resume)))
			.toFuture();
		assertThat(paused.await(10, TimeUnit.SECONDS)).isTrue();
		CuratorLocks locks = admin.getBean(CuratorLocks.class);
		// The test contexts make their locks themselves; the auto-configuration
		// registers the fence table so (DistlockAutoConfigurationTests).
		locks.addFenceStore(admin.getBean(R2dbcTransactionFencing.class));
		long tokenA = locks.admin().locks().get(0).holders().get(0).fencingToken();
		locks.admin().forceRelease(LockPath.of("stock/cherries"), LockProtocol.MUTEX, tokenA);
		assertThat(fence("mutex/stock/cherries")).isEqualTo(tokenA + 1);
		resume.complete(null);
		assertThat(writeA).failsWithin(WAIT)
			.withThrowableOfType(java.util.concurrent.ExecutionException.class)
			.havingCause()
			.isInstanceOf(DistributedLockException.class);
		assertThat(quantity("cherries")).isZero();
	}

	@Test
	void successiveHoldersCommitAndAdvanceTheFence() {
		insertStock("pears", 0);
		ReactiveStock stock = node(contexts().connectString()).getBean(ReactiveStock.class);
		long first = stock.set("pears", 1, Mono.empty()).block(WAIT);
		assertThat(fence("mutex/stock/pears")).isEqualTo(first);
		long second = stock.set("pears", 2, Mono.empty()).block(WAIT);
		assertThat(second).isGreaterThan(first);
		assertThat(fence("mutex/stock/pears")).isEqualTo(second);
		assertThat(quantity("pears")).isEqualTo(2);
	}

	@Test
	void fluxMethodIsFencedAndRefusedWhenStale() {
		insertStock("figs", 0);
		insertStock("kiwis", 0);
		ReactiveStock stock = node(contexts().connectString()).getBean(ReactiveStock.class);
		List<Long> tokens = stock.setAll(List.of("figs", "kiwis"), 5).collectList().block(WAIT);
		assertThat(tokens).hasSize(2);
		assertThat(fence("mutex/stock/figs")).isEqualTo(tokens.get(0));
		assertThat(fence("mutex/stock/kiwis")).isEqualTo(tokens.get(1));

		// A newer holder of one path committed: the whole transaction rolls back.
		database().sql("update distlock_fence set token = :token where lock_path = :key")
			.bind("token", Long.MAX_VALUE - 1)
			.bind("key", "mutex/stock/kiwis")
			.then()
			.block(WAIT);
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> stock.setAll(List.of("figs", "kiwis"), 6).collectList().block(WAIT))
			.satisfies((stale) -> assertThat(stale.getPath()).isEqualTo(LockPath.of("stock/kiwis")));
		assertThat(quantity("figs")).isEqualTo(5);
		assertThat(quantity("kiwis")).isEqualTo(5);
	}

	@Test
	void methodThatFailsRollsBackAndLeavesTheFenceAsItWas() {
		insertStock("dates", 0);
		ReactiveStock stock = node(contexts().connectString()).getBean(ReactiveStock.class);
		long committed = stock.set("dates", 1, Mono.empty()).block(WAIT);
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> stock.set("dates", 2, Mono.error(new IllegalStateException("refused"))).block(WAIT));
		assertThat(fence("mutex/stock/dates")).isEqualTo(committed);
		assertThat(quantity("dates")).isEqualTo(1);
	}

	@Test
	void programmaticHoldFencesItsReactiveTransaction() {
		insertStock("melons", 0);
		AnnotationConfigApplicationContext node = node(contexts().connectString());
		FencedReactiveTransactions fenced = node.getBean(FencedReactiveTransactions.class);
		DatabaseClient client = node.getBean(DatabaseClient.class);
		Locks locks = node.getBean(Locks.class);
		LockHandle older = locks.mutex("stock/melons").acquire(WAIT);
		older.close();
		try (LockHandle newer = locks.mutex("stock/melons").acquire(WAIT)) {
			fenced.execute(newer, (status) -> update(client, "melons", 4)).blockLast(WAIT);
			assertThat(fence("mutex/stock/melons")).isEqualTo(newer.fencingToken());
		}
		assertThatExceptionOfType(StaleFencingTokenException.class)
			.isThrownBy(() -> fenced.execute(older, (status) -> update(client, "melons", 9)).blockLast(WAIT))
			.satisfies((stale) -> assertThat(stale.getToken()).isEqualTo(older.fencingToken()));
		assertThat(quantity("melons")).isEqualTo(4);
	}

	@Test
	void fencedReactiveMethodWithoutAConnectionFactoryIsRefusedAtStartup() {
		assertThatThrownBy(() -> contexts().start(NoDatabaseConfiguration.class))
			.isInstanceOf(BeanCreationException.class)
			.rootCause()
			.isInstanceOf(LockConfigurationException.class)
			.hasMessageContaining(
					"@DistributedLock(\"orders/#{#id}\") on ReactiveFencedTransactionTests.ReactiveOrders.ship(long)")
			.hasMessageContaining("fenced = true on a reactive method")
			.hasMessageContaining("no single (or primary) ReactiveTransactionManager");
	}

	static CompletableFuture<Boolean> committed(Flux<?> transaction) {
		return transaction.then(Mono.just(true))
			.onErrorResume(StaleFencingTokenException.class, (ex) -> Mono.just(false))
			.toFuture();
	}

	private static Mono<Long> update(DatabaseClient client, String sku, int quantity) {
		return client.sql("update stock set quantity = :quantity where sku = :sku")
			.bind("quantity", quantity)
			.bind("sku", sku)
			.fetch()
			.rowsUpdated();
	}

	static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	AnnotationConfigApplicationContext node(String connectString) {
		ConnectionFactory connectionFactory = connectionFactory();
		return contexts().start((context) -> {
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("node", Map.of("test.zookeeper.connect", connectString)));
			context.registerBean(ConnectionFactory.class, () -> connectionFactory);
		}, ReactiveFencedConfiguration.class);
	}

	static class ReactiveStock {

		private final DatabaseClient database;

		ReactiveStock(DatabaseClient database) {
			this.database = database;
		}

		/**
		 * Set a quantity after a step that may pause (a holder standing still) or fail.
		 * @return the fencing token the write carried
		 */
		@DistributedLock(value = "stock/#{#sku}", fenced = true)
		@Transactional
		public Mono<Long> set(String sku, int quantity, Mono<Void> beforeWrite) {
			return beforeWrite.then(update(this.database, sku, quantity))
				.then(ReactiveLockContext.current())
				.map(LockContext::fencingToken);
		}

		@DistributedLock(value = "stock/#{#skus}", fenced = true)
		@Transactional
		public Flux<Long> setAll(List<String> skus, int quantity) {
			return Flux.fromIterable(skus)
				.concatMap((sku) -> update(this.database, sku, quantity))
				.thenMany(ReactiveLockContext.current().flatMapIterable(LockContext::locks))
				.map(LockHandle::fencingToken);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class ReactiveFencedConfiguration {

		@Bean
		ReactiveTransactionManager transactionManager(ConnectionFactory connectionFactory) {
			return new R2dbcTransactionManager(connectionFactory);
		}

		@Bean
		DatabaseClient databaseClient(ConnectionFactory connectionFactory) {
			return DatabaseClient.create(connectionFactory);
		}

		@Bean
		ReactiveStock reactiveStock(DatabaseClient database) {
			return new ReactiveStock(database);
		}

	}

	static class ReactiveOrders {

		@DistributedLock(value = "orders/#{#id}", fenced = true)
		public Mono<Void> ship(long id) {
			return Mono.empty();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class NoDatabaseConfiguration {

		@Bean
		ReactiveOrders reactiveOrders() {
			return new ReactiveOrders();
		}

	}

}
