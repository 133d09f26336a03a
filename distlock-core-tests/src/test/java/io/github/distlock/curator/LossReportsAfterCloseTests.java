package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LockHandle;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Suspicion, proven: the loss of a hold kept across {@link CuratorLocks#close()} was
 * reported on Curator's connection-state thread (close had ended the loss-report thread,
 * and a report refused by it ran on the caller's), so a loss listener that blocks stalled
 * every later connection event of the client. Loss reports run on the engine's report
 * thread after close as before it.
 */
class LossReportsAfterCloseTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	@Test
	void aBlockingLossListenerAfterCloseDoesNotStallCuratorsEvents() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode(ConnectionLossPolicy.SUSPENDED);
		List<String> reportedOn = new CopyOnWriteArrayList<>();
		CountDownLatch listenerGoesOn = new CountDownLatch(1);
		locks.addLossListener((lost) -> {
			reportedOn.add(Thread.currentThread().getName());
			try {
				listenerGoesOn.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		List<ConnectionState> told = new CopyOnWriteArrayList<>();
		locks.client().getConnectionStateListenable().addListener((client, state) -> told.add(state));
		LockHandle held = locks.mutex("report-after-close").acquire(Duration.ofSeconds(5));
		locks.close();

		this.zookeeper.server().stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> !reportedOn.isEmpty());
		this.zookeeper.server().restart();
		try {
			// Curator tells the reconnection while the listener still blocks.
			await().atMost(Duration.ofSeconds(15)).until(() -> told.contains(ConnectionState.RECONNECTED));
			assertThat(listenerGoesOn.getCount()).isOne();
			assertThat(reportedOn).containsExactly("distlock-events");
		}
		finally {
			listenerGoesOn.countDown();
			held.close();
		}
	}

}
