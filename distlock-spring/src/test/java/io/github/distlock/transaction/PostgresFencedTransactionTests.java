package io.github.distlock.transaction;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.StaleFencingTokenException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.EmbeddedPostgresExtension;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Fenced transactions on a real PostgreSQL (embedded, no Docker), whose transactions
 * refuse every statement after a failed one: the first commits of a lock race to insert
 * its row (the loser goes back to the conditional update under a savepoint), and a stale
 * holder is refused.
 */
class PostgresFencedTransactionTests {

	@RegisterExtension
	static final EmbeddedPostgresExtension postgres = new EmbeddedPostgresExtension();

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension(NodeOptions.defaults().withNamespace("fenced-pg"));

	private DataSourceTransactionManager transactionManager;

	private FencedTransactions fenced;

	private JdbcTemplate jdbc;

	@BeforeEach
	void createTables() {
		javax.sql.DataSource dataSource = postgres.dataSource();
		this.jdbc = new JdbcTemplate(dataSource);
		this.jdbc.execute("drop table if exists distlock_fence");
		this.jdbc.execute("drop table if exists stock");
		new ResourceDatabasePopulator(new ClassPathResource("io/github/distlock/transaction/schema-postgresql.sql"))
			.execute(dataSource);
		this.jdbc.execute("create table stock (sku varchar(64) primary key, quantity int not null)");
		this.transactionManager = new DataSourceTransactionManager(dataSource);
		JdbcTransactionFencing fencing = new JdbcTransactionFencing(() -> dataSource, () -> this.transactionManager,
				new FenceTable(FenceTable.DEFAULT_NAME, Clock.systemUTC()));
		this.transactionManager.addListener(fencing);
		this.fenced = new FencedTransactions(this.transactionManager, fencing);
	}

	/**
	 * Two first commits of a lock race to insert its row, ten times: the newer holder
	 * always commits, whichever inserted first. Its update may run before the older's
	 * insert commits and its select after: the update is tried again, not the holder
	 * judged stale (that refused about half the newer holders).
	 */
	@Test
	void firstCommitsRacingToInsertTheRowKeepTheNewestToken() throws Exception {
		CuratorLocks node = this.zookeeper.newNode();
		for (int round = 0; round < 10; round++) {
			String path = "stock/new-" + round;
			List<LockHandle> handles = new ArrayList<>();
			for (int i = 0; i < 2; i++) {
				LockHandle handle = node.mutex(path).acquire(Duration.ofSeconds(5));
				handles.add(handle);
				handle.close();
			}
			CountDownLatch bothOpen = new CountDownLatch(2);
			List<CompletableFuture<Boolean>> commits = new ArrayList<>();
			for (LockHandle handle : handles) {
				commits.add(CompletableFuture.supplyAsync(() -> {
					try {
						this.fenced.execute(handle, (status) -> {
							bothOpen.countDown();
							await(bothOpen);
							return null;
						});
						return true;
					}
					catch (StaleFencingTokenException ex) {
						return false;
					}
				}));
			}
			commits.get(0).get(30, TimeUnit.SECONDS);
			// The older one commits only if it inserted first; the newer one always does.
			assertThat(commits.get(1).get(30, TimeUnit.SECONDS)).as("the newer holder commits, round %d", round)
				.isTrue();
			assertThat(this.jdbc.queryForObject("select token from distlock_fence where lock_path = ?", Long.class,
					"mutex/" + path))
				.isEqualTo(handles.get(1).fencingToken());
		}
	}

	@Test
	void staleHolderIsRefusedAndItsWritesRolledBack() {
		CuratorLocks node = this.zookeeper.newNode();
		LockHandle older = node.mutex("stock/old").acquire(Duration.ofSeconds(5));
		older.close();
		try (LockHandle newer = node.mutex("stock/old").acquire(Duration.ofSeconds(5))) {
			this.fenced.execute(newer, (status) -> this.jdbc.update("insert into stock values ('old', 2)"));
		}
		assertThatExceptionOfType(StaleFencingTokenException.class).isThrownBy(() -> this.fenced.execute(older,
				(status) -> this.jdbc.update("update stock set quantity = 1 where sku = 'old'")));
		assertThat(this.jdbc.queryForObject("select quantity from stock where sku = 'old'", Integer.class))
			.isEqualTo(2);
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
