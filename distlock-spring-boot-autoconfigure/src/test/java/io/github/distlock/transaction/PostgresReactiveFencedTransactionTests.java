package io.github.distlock.transaction;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.EmbeddedPostgresExtension;
import io.github.distlock.testsupport.LockTestContexts;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fenced reactive transactions on a real PostgreSQL (embedded, no Docker) through
 * r2dbc-postgresql: its transactions refuse every statement after a failed one, so the
 * loser of the race to insert a lock's first row goes back under a savepoint.
 */
class PostgresReactiveFencedTransactionTests extends ReactiveFencedTransactionTests {

	@RegisterExtension
	static final EmbeddedPostgresExtension postgres = new EmbeddedPostgresExtension();

	// Long sessions: a node cut off by a paused relay must not notice it for the length
	// of a test.
	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts(new ZooKeeperExtension(
			NodeOptions.defaults().withNamespace("fenced-r2dbc-pg").withSessionTimeout(Duration.ofSeconds(30)))
		.withTickTime(Duration.ofSeconds(2)));

	@BeforeAll
	static void createTablesOnce() {
		new PostgresReactiveFencedTransactionTests().createTables();
	}

	/**
	 * Two first commits of a lock race to insert its row, ten times: the newer holder
	 * always commits, whichever inserted first (its update may run before the older's
	 * insert commits and its select after: the update is tried again).
	 */
	@Test
	void firstCommitsRacingToInsertTheRowKeepTheNewestToken() throws Exception {
		AnnotationConfigApplicationContext node = node(contexts().connectString());
		FencedReactiveTransactions fenced = node.getBean(FencedReactiveTransactions.class);
		Locks locks = node.getBean(Locks.class);
		for (int round = 0; round < 10; round++) {
			String path = "stock/new-" + round;
			LockHandle first = locks.mutex(path).acquire(WAIT);
			first.close();
			LockHandle second = locks.mutex(path).acquire(WAIT);
			second.close();
			// Both transactions are open before either commits: both find no row.
			CountDownLatch bothOpen = new CountDownLatch(2);
			Mono<Void> meet = Mono.fromRunnable(bothOpen::countDown)
				.then(Mono.fromFuture(() -> CompletableFuture.runAsync(() -> awaitQuietly(bothOpen))));
			CompletableFuture<Boolean> older = committed(fenced.execute(first, (status) -> meet.then()));
			CompletableFuture<Boolean> newer = committed(fenced.execute(second, (status) -> meet.then()));
			older.get(30, TimeUnit.SECONDS);
			assertThat(newer.get(30, TimeUnit.SECONDS)).as("the newer holder commits, round %d", round).isTrue();
			assertThat(fence("mutex/" + path)).isEqualTo(second.fencingToken());
		}
	}

	@Override
	LockTestContexts contexts() {
		return contexts;
	}

	@Override
	ConnectionFactory connectionFactory() {
		return postgres.connectionFactory();
	}

	@Override
	String databaseName() {
		return "PostgreSQL";
	}

}
