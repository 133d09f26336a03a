package io.github.distlock.sample;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.test.CallGate;
import io.github.distlock.test.DistlockNode;
import io.github.distlock.test.DistlockNodes;
import io.github.distlock.test.DistlockZooKeeperExtension;
import io.github.distlock.test.LockAcquisition;
import io.github.distlock.test.TestBeans;
import io.github.distlock.test.TestZooKeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The three tests of a service with a lock, as docs/testing.md writes them: two instances
 * never run a purchase of one SKU at once, a purchase whose session expires mid-call is
 * rolled back, and a purchase waiting for the lock when ZooKeeper stops gives up at its
 * deadline without running. A gate in a test double of the stock table holds a purchase
 * inside its lock for as long as the test needs: no sleep anywhere.
 */
class InventoryAcrossInstancesTests {

	@RegisterExtension
	static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension();

	private final ExecutorService callers = Executors.newFixedThreadPool(2);

	@AfterEach
	void stopCallers() {
		this.callers.shutdownNow();
	}

	@Test
	void twoInstancesNeverPurchaseTheSameSkuAtOnce(TestZooKeeper zookeeper) throws Exception {
		CallGate gate = new CallGate();
		try (DistlockNodes shop = startShop(zookeeper, gate)) {
			InventoryService first = shop.get(0).getBean(InventoryService.class);
			InventoryService second = shop.get(1).getBean(InventoryService.class);

			Future<InventoryService.Purchase> held = this.callers.submit(() -> first.purchase("lamp", 1));
			gate.awaitEntered(); // the first instance's purchase is inside, holding
									// inventory/lamp
			Future<InventoryService.Purchase> waiting = this.callers.submit(() -> second.purchase("lamp", 1));
			shop.get(1).awaitWaiting("inventory/lamp"); // the second instance's waits for
														// the lock
			assertThat(gate.getEntered()).as("purchases inside the method").isOne();

			gate.open();
			assertThat(held.get(10, TimeUnit.SECONDS).remaining()).isEqualTo(4);
			assertThat(waiting.get(10, TimeUnit.SECONDS).remaining()).isEqualTo(3);
			assertThat(shop.acquisitions("inventory/lamp")).extracting(LockAcquisition::getNode)
				.containsExactly(shop.get(0).getName(), shop.get(1).getName());
			assertThat(shop.getRecorder().getFencingTokens("inventory/lamp")).hasSize(2).isSorted();
		}
	}

	@Test
	void purchaseWhoseSessionExpiresMidCallIsRolledBack(TestZooKeeper zookeeper) throws Exception {
		CallGate gate = new CallGate();
		try (DistlockNodes shop = startShop(zookeeper, gate)) {
			DistlockNode node = shop.first();
			InventoryService inventory = node.getBean(InventoryService.class);

			Future<InventoryService.Purchase> purchase = this.callers.submit(() -> inventory.purchase("desk", 2));
			gate.awaitEntered(); // the purchase holds inventory/desk, inside the method
			zookeeper.expireSession(node);
			gate.open();

			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> purchase.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			assertThat(inventory.available("desk")).isEqualTo(5);
			assertThat(node.getRecorder().getAcquisitions("inventory/desk")).singleElement()
				.satisfies((acquisition) -> assertThat(acquisition.isLost()).isTrue());
		}
	}

	@Test
	void purchaseWaitingWhenZooKeeperStopsGivesUpAtItsDeadlineWithoutRunning(TestZooKeeper zookeeper) throws Exception {
		CallGate gate = new CallGate();
		try (DistlockNodes shop = startShop(zookeeper, gate)) {
			InventoryService first = shop.get(0).getBean(InventoryService.class);
			InventoryService second = shop.get(1).getBean(InventoryService.class);
			Future<InventoryService.Purchase> held = this.callers.submit(() -> first.purchase("chair", 1));
			gate.awaitEntered();
			Future<InventoryService.Purchase> waiting = this.callers.submit(() -> second.purchase("chair", 1));
			LockAcquisition acquisition = shop.get(1).awaitWaiting("inventory/chair");

			zookeeper.stop();

			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> waiting.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockTimeoutException.class);
			assertThat(acquisition.getOutcome()).isEqualTo(LockAcquisition.Outcome.TIMED_OUT);
			assertThat(gate.getEntered()).as("purchases that ran").isOne();
			// The holder lost its lock with the connection: its purchase rolls back.
			gate.open();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> held.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
			assertThat(first.available("chair")).isEqualTo(5);
			// Back before the instances stop, so that they leave ZooKeeper at once.
			zookeeper.restart();
		}
	}

	/** Two instances of the shop on one database, their stock tables held at the gate. */
	private static DistlockNodes startShop(TestZooKeeper zookeeper, CallGate gate) {
		return zookeeper.startNodes(2, SampleApplication.class,
				(builder) -> builder.sources(GatedStock.class).initializers(TestBeans.bean(CallGate.class, () -> gate)),
				"--spring.datasource.url=jdbc:h2:mem:across-instances;DB_CLOSE_DELAY=-1", "--shop.restock.cron=-",
				"--shop.initial-stock.lamp=5", "--shop.initial-stock.desk=5", "--shop.initial-stock.chair=5",
				"--distlock.lock.wait-time=1s");
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class GatedStock {

		@Bean
		@Primary
		GatedStockStore gatedStockStore(JdbcClient jdbc, CallGate gate) {
			return new GatedStockStore(jdbc, gate);
		}

	}

	/** The stock table, whose reads wait at the test's gate: a purchase stops there. */
	static class GatedStockStore extends StockStore {

		private final CallGate gate;

		GatedStockStore(JdbcClient jdbc, CallGate gate) {
			super(jdbc);
			this.gate = gate;
		}

		@Override
		public int available(String sku) {
			this.gate.await();
			return super.available(sku);
		}

	}

}
