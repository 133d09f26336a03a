package io.github.distlock.transaction;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.testsupport.LockTestContexts;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

/**
 * Fenced transactions under JPA on H2: an in-memory database of its own for each test.
 */
class H2JpaFencedTransactionTests extends JpaFencedTransactionTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts(
			new ZooKeeperExtension(NodeOptions.defaults().withNamespace("fenced-jpa-h2")));

	@Override
	LockTestContexts contexts() {
		return contexts;
	}

	@Override
	FencedDatabase newDatabase() {
		return FencedDatabase.h2();
	}

}
