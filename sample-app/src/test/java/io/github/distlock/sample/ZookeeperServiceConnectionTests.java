package io.github.distlock.sample;

import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

import io.github.distlock.autoconfigure.ZookeeperConnectionDetails;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shop against ZooKeeper in a container, connected through {@code @ServiceConnection}
 * (no {@code distlock.zookeeper.connect-string} anywhere). Skipped where Docker is not
 * available.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(properties = { "distlock.zookeeper.embedded.enabled=false", "shop.initial-stock.boxed=3" })
class ZookeeperServiceConnectionTests {

	@Container
	@ServiceConnection
	static GenericContainer<?> zookeeper = new GenericContainer<>("zookeeper:3.9").withExposedPorts(2181);

	@Autowired
	private ZookeeperConnectionDetails connectionDetails;

	@Autowired
	private InventoryService inventory;

	@Test
	void connectsToTheContainer() {
		assertThat(this.connectionDetails.getConnectString())
			.isEqualTo(zookeeper.getHost() + ":" + zookeeper.getMappedPort(2181));
		assertThat(this.inventory.purchase("boxed", 2).remaining()).isEqualTo(1);
	}

}
