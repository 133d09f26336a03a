package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Under {@link ConnectionLossPolicy#LOST} a hold survives a suspension and is lost only
 * when the session ends. With the server stopped past the session timeout, Curator gives
 * the session up (its default error policy reports LOST once the session timeout elapsed
 * without a connection, and replaces its ZooKeeper handle): the engine tells the hold's
 * loss then, to the loss listeners and the event listeners, while the server is still
 * away and without anyone asking the handle. Nothing here reads the handle's state before
 * the loss was told, so only the engine's reaction to Curator's LOST can tell it.
 */
class SessionGivenUpTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	@Test
	void aHoldIsToldLostWhenCuratorGivesTheSessionUp() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode(ConnectionLossPolicy.LOST);
		List<HeldLock> lost = new CopyOnWriteArrayList<>();
		List<String> events = new CopyOnWriteArrayList<>();
		locks.addLossListener(lost::add);
		locks.addEventListener((kind, path) -> new LockEventListener.AcquisitionListener() {

			@Override
			public void acquired(long fencingToken) {
				events.add("acquired");
			}

			@Override
			public void lost() {
				events.add("lost");
			}

			@Override
			public void released() {
				events.add("released");
			}

		});
		LockHandle held = locks.mutex("given-up").acquire(Duration.ofSeconds(5));
		long session = locks.clientInstance();
		this.zookeeper.server().stop();

		await().atMost(Duration.ofSeconds(Faults.SESSION_TIMEOUT_MS / 1000 * 3 + 10))
			.pollInterval(Duration.ofMillis(20))
			.until(() -> !lost.isEmpty());
		// Told before any reconnection: the server is still stopped.
		assertThat(locks.client().getZookeeperClient().isConnected()).isFalse();
		assertThat(locks.clientInstance()).isNotEqualTo(session);
		assertThat(lost).singleElement().satisfies((loss) -> {
			assertThat(loss.path().value()).isEqualTo("given-up");
			assertThat(loss.fencingToken()).isEqualTo(held.fencingToken());
		});
		assertThat(events).containsExactly("acquired", "lost");
		assertThat(held.state()).isEqualTo(LockState.LOST);
		held.close();
		assertThat(events).containsExactly("acquired", "lost", "released");
	}

}
