package io.github.distlock.transaction;

import java.time.Duration;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.testsupport.LockTestContexts;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

/**
 * Fenced transactions on H2: an in-memory database of its own for each test.
 */
class H2FencedTransactionTests extends FencedTransactionTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts(new ZooKeeperExtension(
			NodeOptions.defaults().withNamespace("fenced-h2").withSessionTimeout(Duration.ofSeconds(30)))
		.withTickTime(Duration.ofSeconds(2)));

	@Override
	LockTestContexts contexts() {
		return contexts;
	}

	@Override
	FencedDatabase newDatabase() {
		return FencedDatabase.h2();
	}

}
