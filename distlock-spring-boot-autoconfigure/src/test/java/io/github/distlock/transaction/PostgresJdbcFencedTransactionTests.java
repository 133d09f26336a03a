package io.github.distlock.transaction;

import java.time.Duration;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.testsupport.EmbeddedPostgresExtension;
import io.github.distlock.testsupport.LockTestContexts;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

/**
 * Fenced transactions on a real PostgreSQL (embedded, no Docker) through its JDBC driver:
 * the class's database, whose tables each test creates anew.
 */
class PostgresJdbcFencedTransactionTests extends FencedTransactionTests {

	@RegisterExtension
	static final EmbeddedPostgresExtension postgres = new EmbeddedPostgresExtension();

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts(new ZooKeeperExtension(
			NodeOptions.defaults().withNamespace("fenced-pg").withSessionTimeout(Duration.ofSeconds(30)))
		.withTickTime(Duration.ofSeconds(2)));

	@Override
	LockTestContexts contexts() {
		return contexts;
	}

	@Override
	FencedDatabase newDatabase() {
		return FencedDatabase.postgres(postgres);
	}

}
