package io.github.distlock.sample;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.test.AutoConfigureDistlockZooKeeper;
import io.github.distlock.test.CallGate;
import io.github.distlock.test.DistlockNode;
import io.github.distlock.test.LockAcquisition;
import io.github.distlock.test.LockRecorder;
import io.github.distlock.test.TestZooKeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The shop's purchases under ZooKeeper faults, with distlock's test kit: the session
 * expires while a purchase holds its lock, and ZooKeeper is down while a purchase waits.
 */
@SpringBootTest(webEnvironment = WebEnvironment.NONE,
		properties = { "shop.initial-stock.paused=5", "shop.initial-stock.down=5", "distlock.lock.wait-time=500ms",
				"shop.restock.cron=-", "spring.datasource.url=jdbc:h2:mem:faults;DB_CLOSE_DELAY=-1" })
@AutoConfigureDistlockZooKeeper
class InventoryUnderFaultsTests {

	@Autowired
	TestZooKeeper zookeeper;

	@Autowired
	DistlockNode node;

	@Autowired
	LockRecorder locks;

	@Autowired
	InventoryService inventory;

	@Autowired
	PausingStockStore stock;

	private final ExecutorService caller = Executors.newSingleThreadExecutor();

	@AfterEach
	void stopCaller() {
		this.caller.shutdownNow();
	}

	@Test
	void purchaseThatLosesItsLockIsRolledBack() throws Exception {
		Future<InventoryService.Purchase> purchase = this.caller.submit(() -> this.inventory.purchase("paused", 2));
		// The purchase holds its lock, inventory/paused, and waits inside the method.
		this.stock.gate().awaitEntered();

		this.zookeeper.expireSession(this.node);
		this.stock.gate().open();

		assertThatExceptionOfType(ExecutionException.class).isThrownBy(purchase::get)
			.withCauseInstanceOf(LockLostException.class);
		assertThat(this.inventory.available("paused")).isEqualTo(5);
		assertThat(this.locks.getAcquisitions("inventory/paused")).singleElement()
			.satisfies((acquisition) -> assertThat(acquisition.isLost()).isTrue());
	}

	@Test
	void purchaseKeepsItsDeadlineWhileZooKeeperIsDown() {
		this.zookeeper.stop();

		assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> this.inventory.purchase("down", 1));
		LockAcquisition acquisition = this.locks.getAcquisitions("inventory/down").get(0);
		assertThat(acquisition.getOutcome()).isEqualTo(LockAcquisition.Outcome.TIMED_OUT);
		assertThat(acquisition.getWaited()).isLessThan(Duration.ofMillis(1500));
		assertThat(this.inventory.available("down")).isEqualTo(5);
	}

	@TestConfiguration
	static class PausingStore {

		@Bean
		@Primary
		PausingStockStore pausingStockStore(JdbcClient jdbc) {
			return new PausingStockStore(jdbc);
		}

	}

	/**
	 * The stock table, whose reads of the SKU {@code paused} wait at a gate until the
	 * test opens it: a purchase stops there, inside its lock.
	 */
	static class PausingStockStore extends StockStore {

		private final CallGate gate = new CallGate();

		PausingStockStore(JdbcClient jdbc) {
			super(jdbc);
		}

		/** The gate (a method: the test is given a proxy of the store). */
		CallGate gate() {
			return this.gate;
		}

		@Override
		public int available(String sku) {
			if (sku.equals("paused")) {
				this.gate.await();
			}
			return super.available(sku);
		}

	}

}
