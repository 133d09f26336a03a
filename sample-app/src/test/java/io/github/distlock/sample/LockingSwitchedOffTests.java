package io.github.distlock.sample;

import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.ApplicationContext;

import io.github.distlock.core.Locks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code distlock.enabled=false} (the cluster demo's second run) the shop still
 * starts and sells, without any lock: no ZooKeeper client, no {@link Locks}, no proxies.
 */
@SpringBootTest(webEnvironment = WebEnvironment.NONE, properties = { "distlock.enabled=false",
		"shop.initial-stock.unlocked=5", "spring.datasource.url=jdbc:h2:mem:unlocked;DB_CLOSE_DELAY=-1" })
class LockingSwitchedOffTests {

	@Autowired
	private ApplicationContext context;

	@Autowired
	private InventoryService inventory;

	@Autowired
	private OrderService orders;

	@Autowired
	private StockCountService counts;

	@Test
	void shopRunsWithoutLocks() {
		assertThat(this.context.getBeanNamesForType(Locks.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(CuratorFramework.class)).isEmpty();
		assertThat(this.inventory.purchase("unlocked", 2).remaining()).isEqualTo(3);
		assertThat(this.orders.place(new OrderRequest(List.of(new OrderLine("unlocked", 1)))).lines()).hasSize(1);
		assertThat(this.inventory.available("unlocked")).isEqualTo(2);
		assertThat(this.counts.recordCount("unlocked", 7)).isEqualTo(7);
		assertThat(this.inventory.available("unlocked")).isEqualTo(7);
	}

}
