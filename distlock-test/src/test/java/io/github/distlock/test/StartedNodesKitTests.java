package io.github.distlock.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.test.app.TicketApplication;
import io.github.distlock.test.app.TicketOffice;
import io.github.distlock.test.app.TicketPrinter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What the kit gives the nodes it starts: a {@link LockRecorder} each and a merged one, a
 * {@link CallGate} to hold a call inside its lock with an await for a waiting call, and
 * test doubles handed to the nodes without static state.
 */
class StartedNodesKitTests {

	@RegisterExtension
	static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension();

	private final ExecutorService callers = Executors.newFixedThreadPool(2);

	@AfterEach
	void stopCallers() {
		this.callers.shutdownNow();
	}

	@Test
	void eachNodeRecordsItsOwnAcquisitionsAndTheNodesMergeThemInOrderOfGrant(TestZooKeeper server) {
		try (DistlockNodes shop = server.startNodes(2, TicketApplication.class)) {
			TicketOffice first = shop.get(0).getBean(TicketOffice.class);
			TicketOffice second = shop.get(1).getBean(TicketOffice.class);
			long one = first.sell("gala");
			long two = second.sell("gala");
			long three = first.sell("gala");

			LockRecorder firstRecorder = shop.get(0).getBean(LockRecorder.class);
			assertThat(shop.get(0).getRecorder()).isSameAs(firstRecorder);
			assertThat(firstRecorder.getFencingTokens("events/gala")).containsExactly(one, three);
			assertThat(shop.get(1).getRecorder().getFencingTokens("events/#{#event}")).containsExactly(two);
			assertThat(shop.acquisitions("events/gala")).extracting(LockAcquisition::getNode)
				.containsExactly(shop.get(0).getName(), shop.get(1).getName(), shop.get(0).getName());
			assertThat(shop.getRecorder().getFencingTokens("events/gala")).containsExactly(one, two, three).isSorted();

			shop.getRecorder().clear();
			assertThat(shop.getRecorder().getAcquisitions()).isEmpty();
			assertThat(firstRecorder.getAcquisitions()).isEmpty();
		}
	}

	@Test
	void aCallHeldAtTheGateKeepsItsLockWhileTheOtherNodesCallWaits(TestZooKeeper server) throws Exception {
		CallGate gate = new CallGate();
		try (DistlockNodes shop = server.startNodes(2, TicketApplication.class, (builder) -> builder
			.initializers(TestBeans.primary(TicketPrinter.class, () -> (event) -> gate.await())))) {
			Future<Long> held = this.callers.submit(() -> shop.get(0).getBean(TicketOffice.class).sell("gala"));
			String holder = gate.awaitEntered();
			Future<Long> waiting = this.callers.submit(() -> shop.get(1).getBean(TicketOffice.class).sell("gala"));

			LockAcquisition queued = shop.get(1).awaitWaiting("events/gala");
			assertThat(queued.getNode()).isEqualTo(shop.get(1).getName());
			assertThat(gate.getEntered()).isOne();
			assertThat(waiting).isNotDone();

			gate.open();
			long first = held.get(10, TimeUnit.SECONDS);
			long second = waiting.get(10, TimeUnit.SECONDS);
			assertThat(second).isGreaterThan(first);
			assertThat(shop.acquisitions("events/gala")).extracting(LockAcquisition::getThread)
				.containsExactly(holder, queued.getThread());
		}
	}

	@Test
	void aTestConfigurationGivesEveryNodeItsOwnDouble(TestZooKeeper server) {
		try (DistlockNodes shop = server.startNodes(2, TicketApplication.class,
				(builder) -> builder.sources(RecordingPrinterConfiguration.class))) {
			shop.get(1).getBean(TicketOffice.class).sell("opera");
			assertThat(shop.get(0).getBean(RecordingPrinter.class).printed).isEmpty();
			assertThat(shop.get(1).getBean(RecordingPrinter.class).printed).containsExactly("opera");
		}
	}

	@Test
	void aBareNodeHasARecorderToo(TestZooKeeper server) {
		DistlockNode node = server.newNode();
		try (LockHandle handle = node.getLocks().mutex(LockPath.of("stock", "widget")).acquire(Duration.ofSeconds(5))) {
			assertThat(node.getRecorder().getFencingTokens("stock/widget")).containsExactly(handle.fencingToken());
		}
		assertThat(node.getRecorder().getAcquisitions("stock/widget")).singleElement()
			.satisfies((acquisition) -> assertThat(acquisition.isReleased()).isTrue());
	}

	@Test
	void awaitingAWaitingCallThatNeverComesFailsWithTheHistory(TestZooKeeper server) {
		DistlockNode node = server.newNode();
		node.getLocks().mutex(LockPath.of("stock", "widget")).acquire(Duration.ofSeconds(5)).close();
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> node.getRecorder().awaitWaiting("stock/widget", Duration.ofMillis(100)))
			.withMessageStartingWith("No acquisition of 'stock/widget' waiting within PT0.1S; recorded:")
			.withMessageContaining("MUTEX stock/widget on " + node.getName() + "/");
	}

	@Test
	void aGateNeverOpenedFailsTheHeldCallInsteadOfHangingIt() {
		CallGate gate = new CallGate(Duration.ofMillis(100));
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(gate::await)
			.withMessageContaining("not opened within PT0.1S");
		assertThat(gate.getEntered()).isOne();
		gate.open();
		gate.await();
		assertThat(gate.getEntered()).isOne();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class RecordingPrinterConfiguration {

		@Bean
		@Primary
		RecordingPrinter recordingPrinter() {
			return new RecordingPrinter();
		}

	}

	static class RecordingPrinter implements TicketPrinter {

		final List<String> printed = new java.util.concurrent.CopyOnWriteArrayList<>();

		@Override
		public void print(String event) {
			this.printed.add(event);
		}

	}

}
