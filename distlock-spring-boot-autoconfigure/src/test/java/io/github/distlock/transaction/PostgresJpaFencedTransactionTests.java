package io.github.distlock.transaction;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.testsupport.EmbeddedPostgresExtension;
import io.github.distlock.testsupport.LockTestContexts;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

/**
 * Fenced transactions under JPA on a real PostgreSQL (embedded, no Docker): the class's
 * database, whose tables each test creates anew.
 */
class PostgresJpaFencedTransactionTests extends JpaFencedTransactionTests {

	@RegisterExtension
	static final EmbeddedPostgresExtension postgres = new EmbeddedPostgresExtension();

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts(
			new ZooKeeperExtension(NodeOptions.defaults().withNamespace("fenced-jpa-pg")));

	@Override
	LockTestContexts contexts() {
		return contexts;
	}

	@Override
	FencedDatabase newDatabase() {
		return FencedDatabase.postgres(postgres);
	}

}
