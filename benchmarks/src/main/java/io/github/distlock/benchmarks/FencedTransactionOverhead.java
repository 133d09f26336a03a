package io.github.distlock.benchmarks;

import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Locale;
import java.util.UUID;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.transaction.support.TransactionTemplate;

import io.github.distlock.core.LockHandle;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.transaction.FenceTable;
import io.github.distlock.transaction.FencedTransactions;
import io.github.distlock.transaction.JdbcTransactionFencing;

/**
 * The cost of fencing a transaction, on an in-memory H2 database: a plain transaction
 * (one UPDATE of a row) against the same transaction fenced by a held lock (the UPDATE,
 * plus the conditional UPDATE of the fence row at commit), run in alternating pairs so
 * that both see the same machine. The lock is taken once, before the run: the figure is
 * the fence's own cost, not the lock's. System properties {@code bench.pairs} (20 000)
 * and {@code bench.warmupPairs} (5 000).
 */
final class FencedTransactionOverhead {

	private FencedTransactionOverhead() {
	}

	public static void main(String[] args) throws Exception {
		int pairs = Integer.getInteger("bench.pairs", 20_000);
		int warmup = Integer.getInteger("bench.warmupPairs", 5_000);
		System.setProperty("zookeeper.admin.enableServer", "false");
		SingleConnectionDataSource dataSource = new SingleConnectionDataSource(
				"jdbc:h2:mem:fenced-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", true);
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		new ResourceDatabasePopulator(new ClassPathResource("io/github/distlock/transaction/schema-h2.sql"))
			.execute(dataSource);
		jdbc.execute("create table stock (sku varchar(64) primary key, quantity int not null)");
		jdbc.update("insert into stock values ('a', 0)");
		DataSourceTransactionManager transactionManager = new DataSourceTransactionManager(dataSource);
		JdbcTransactionFencing fencing = new JdbcTransactionFencing(() -> dataSource, () -> transactionManager,
				new FenceTable(FenceTable.DEFAULT_NAME, Clock.systemUTC()));
		transactionManager.addListener(fencing);
		TransactionTemplate plain = new TransactionTemplate(transactionManager);
		FencedTransactions fenced = new FencedTransactions(transactionManager, fencing);
		try (TestingServer server = new TestingServer(true);
				CuratorFramework client = BenchmarkClients.start(server.getConnectString(), "bench-fenced");
				CuratorLocks locks = CuratorLocks.builder(client).defaultWaitTime(Duration.ofSeconds(10)).build();
				LockHandle handle = locks.mutex("stock/a").acquire(Duration.ofSeconds(10))) {
			long[] plainNanos = new long[pairs];
			long[] fencedNanos = new long[pairs];
			for (int i = -warmup; i < pairs; i++) {
				long start = System.nanoTime();
				plain.executeWithoutResult((status) -> jdbc.update("update stock set quantity = quantity + 1"));
				long middle = System.nanoTime();
				fenced.execute(handle, (status) -> jdbc.update("update stock set quantity = quantity + 1"));
				long end = System.nanoTime();
				if (i >= 0) {
					plainNanos[i] = middle - start;
					fencedNanos[i] = end - middle;
				}
			}
			Arrays.sort(plainNanos);
			Arrays.sort(fencedNanos);
			System.out.printf(Locale.ROOT, "%s; load average %s; %d pairs after %d of warm-up%n",
					ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), PairedOverhead.loadAverage(),
					pairs, warmup);
			System.out.printf(Locale.ROOT, "%-8s %10s %10s %10s%n", "", "p50 µs", "p90 µs", "p99 µs");
			print("plain", plainNanos);
			print("fenced", fencedNanos);
			System.out.printf(Locale.ROOT, "fenced - plain at p50: %.1f µs%n",
					(fencedNanos[pairs / 2] - plainNanos[pairs / 2]) / 1000.0);
		}
	}

	private static void print(String name, long[] sorted) {
		System.out.printf(Locale.ROOT, "%-8s %10.1f %10.1f %10.1f%n", name, sorted[sorted.length / 2] / 1000.0,
				sorted[sorted.length * 9 / 10] / 1000.0, sorted[sorted.length * 99 / 100] / 1000.0);
	}

}
