package io.github.distlock.curator;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A lock still held when its locks are closed (the shutdown of an application while a
 * locked method still runs) keeps following its session until its holder releases it:
 * once the connection is gone it leaves {@code HELD} as any hold does, by the
 * connection-loss policy.
 */
class HoldsAfterCloseTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	@Test
	void aHoldKeptAcrossCloseIsLostWhenTheConnectionIsSuspended() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode(ConnectionLossPolicy.SUSPENDED);
		LockHandle held = locks.mutex("shutdown").acquire(Duration.ofSeconds(5));
		locks.close();
		assertThat(held.state()).isEqualTo(LockState.HELD);
		long session = locks.clientInstance();
		this.zookeeper.server().stop();
		// Lost at the suspension, not only once Curator gives the session up (a session
		// timeout later, when any hold is found lost by its session).
		await().atMost(Duration.ofSeconds(Faults.SESSION_TIMEOUT_MS / 1000 + 5))
			.pollInterval(Duration.ofMillis(10))
			.until(() -> locks.clientInstance() != session || held.state() == LockState.LOST);
		assertThat(locks.clientInstance()).isEqualTo(session);
		held.close();
	}

	@Test
	void aHoldKeptAcrossCloseIsInDoubtThenLostWithItsSession() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode(ConnectionLossPolicy.LOST);
		LockHandle held = locks.mutex("shutdown").acquire(Duration.ofSeconds(5));
		locks.close();
		this.zookeeper.server().stop();
		await().atMost(Duration.ofSeconds(5)).until(() -> held.state() == LockState.IN_DOUBT);
		// Curator gives the session up once the connection stayed lost past its timeout.
		await().atMost(Duration.ofSeconds(Faults.SESSION_TIMEOUT_MS / 1000 * 3 + 5))
			.until(() -> held.state() == LockState.LOST);
		held.close();
	}

}
