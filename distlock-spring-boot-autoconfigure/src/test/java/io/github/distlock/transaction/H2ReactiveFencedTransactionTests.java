package io.github.distlock.transaction;

import java.time.Duration;
import java.util.UUID;

import io.r2dbc.h2.H2ConnectionFactory;
import io.r2dbc.spi.ConnectionFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.testsupport.LockTestContexts;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

/**
 * Fenced reactive transactions on H2 (r2dbc-h2), an in-memory database that the nodes of
 * the class share by name.
 */
class H2ReactiveFencedTransactionTests extends ReactiveFencedTransactionTests {

	// Long sessions: a node cut off by a paused relay must not notice it for the length
	// of a test.
	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts(new ZooKeeperExtension(
			NodeOptions.defaults().withNamespace("fenced-r2dbc-h2").withSessionTimeout(Duration.ofSeconds(30)))
		.withTickTime(Duration.ofSeconds(2)));

	private static final String NAME = "fenced-r2dbc-" + UUID.randomUUID();

	// Kept open for the class: the in-memory database lives while a connection does.
	private static final ConnectionFactory KEEPER = connection();

	@BeforeAll
	static void createTablesOnce() {
		new H2ReactiveFencedTransactionTests().createTables();
	}

	private static ConnectionFactory connection() {
		return H2ConnectionFactory.inMemory(NAME + ";LOCK_TIMEOUT=30000");
	}

	@Override
	LockTestContexts contexts() {
		return contexts;
	}

	@Override
	ConnectionFactory connectionFactory() {
		return KEEPER;
	}

	@Override
	String databaseName() {
		return "H2";
	}

}
