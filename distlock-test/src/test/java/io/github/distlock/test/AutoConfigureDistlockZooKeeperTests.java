package io.github.distlock.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.env.Environment;

import io.github.distlock.testsupport.ConcurrencyProbe;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.test.app.TicketApplication;
import io.github.distlock.test.app.TicketOffice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link AutoConfigureDistlockZooKeeper} points a Spring Boot test's context at the kit's
 * server through a relay of its own, and gives it the kit's beans.
 */
@SpringBootTest(classes = TicketApplication.class,
		properties = { "distlock.zookeeper.connect-string=elsewhere:2181", "distlock.zookeeper.embedded.enabled=true" })
@AutoConfigureDistlockZooKeeper
class AutoConfigureDistlockZooKeeperTests {

	@Autowired
	TestZooKeeper zookeeper;

	@Autowired
	DistlockNode node;

	@Autowired
	LockRecorder recorder;

	@Autowired
	TicketOffice tickets;

	@Autowired
	ConcurrencyProbe probe;

	@Autowired
	Environment environment;

	@Test
	void contextConnectsThroughItsRelayWithShortSessions() throws Exception {
		assertThat(this.environment.getProperty("distlock.zookeeper.connect-string"))
			.isEqualTo(this.node.getRelay().getConnectString());
		assertThat(this.environment.getProperty("distlock.zookeeper.embedded.enabled")).isEqualTo("false");
		assertThat(this.node.getClient().getZookeeperClient().getZooKeeper().getSessionTimeout()).isEqualTo(3000);
		assertThat(this.zookeeper.hasSession(this.node.getSessionId())).isTrue();
	}

	@Test
	void recorderSeesTheLockTheMethodRanUnder() {
		LockAcquisition sale = this.recorder.assertRanUnder("events/#{#event}", () -> this.tickets.sell("gala"));
		assertThat(sale.getPath().value()).isEqualTo("events/gala");
		assertThat(sale.getFencingToken()).isPositive();
		assertThat(sale.isReleased()).isTrue();
		assertThat(this.recorder.getFencingTokens("events/gala")).containsExactly(sale.getFencingToken());
		this.probe.assertEveryCallHeld("events/#{#event}");
	}

	@Test
	void recorderReportsACallThatTookNoLock() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> this.recorder.assertRanUnder("events/gala", () -> this.tickets.sold("gala")))
			.withMessageContaining("took no lock");
	}

	@Test
	void sessionLossMidMethodFailsTheMethodAndTheRecorderSeesTheLoss() throws Exception {
		CountDownLatch proceed = new CountDownLatch(1);
		ExecutorService caller = Executors.newSingleThreadExecutor();
		try {
			Future<Long> sale = caller.submit(() -> this.tickets.sellSlowly("opera", proceed));
			awaitHeld("events/opera");
			this.zookeeper.expireSession(this.node);
			proceed.countDown();
			assertThatExceptionOfType(java.util.concurrent.ExecutionException.class).isThrownBy(sale::get)
				.withCauseInstanceOf(LockLostException.class);
		}
		finally {
			caller.shutdownNow();
		}
		List<LockAcquisition> history = this.recorder.getAcquisitions("events/opera");
		assertThat(history).hasSize(1);
		assertThat(history.get(0).isLost()).isTrue();
		assertThat(this.node.getConnectionStates()).contains(ConnectionState.LOST);
	}

	@Test
	void deadlineIsKeptWhileZooKeeperIsDown() {
		this.zookeeper.stop();
		long start = System.nanoTime();
		assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> this.tickets.sellWithin500ms("concert"));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1500));
		assertThat(this.recorder.getAcquisitions("events/concert")).singleElement()
			.extracting(LockAcquisition::getOutcome)
			.isEqualTo(LockAcquisition.Outcome.TIMED_OUT);
	}

	private void awaitHeld(String path) {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		while (this.node.getLocks().heldLocks().stream().noneMatch((held) -> held.path().value().equals(path))) {
			assertThat(System.nanoTime()).as("lock %s held in time", path).isLessThan(deadline);
			Thread.onSpinWait();
		}
	}

}
