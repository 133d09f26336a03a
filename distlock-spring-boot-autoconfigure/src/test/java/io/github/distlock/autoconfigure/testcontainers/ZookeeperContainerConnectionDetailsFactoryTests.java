package io.github.distlock.autoconfigure.testcontainers;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.TestContainerConnectionSources;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

import io.github.distlock.autoconfigure.ZookeeperConnectionDetails;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ZookeeperContainerConnectionDetailsFactory} that need no Docker: the
 * factory is registered where Spring Boot looks for it. {@code
 * ZookeeperServiceConnectionTests} in the sample starts a real container where Docker
 * exists.
 */
class ZookeeperContainerConnectionDetailsFactoryTests {

	@Test
	void factoryIsRegisteredForSpringBoot() {
		List<ConnectionDetailsFactory> factories = SpringFactoriesLoader.forDefaultResourceLocation()
			.load(ConnectionDetailsFactory.class, FailureHandler.logging(LogFactory.getLog(getClass())));
		assertThat(factories).hasAtLeastOneElementOfType(ZookeeperContainerConnectionDetailsFactory.class);
	}

	@Test
	void acceptsAContainerOfAZookeeperImage() {
		assertThat(detailsFor("", "zookeeper:3.9")).isInstanceOf(ZookeeperConnectionDetails.class);
		assertThat(detailsFor("", "bitnami/zookeeper:3.9")).isInstanceOf(ZookeeperConnectionDetails.class);
	}

	@Test
	void acceptsAnyImageNamedZookeeperByTheAnnotation() {
		assertThat(detailsFor("zookeeper", "example.org/my-coordination:1"))
			.isInstanceOf(ZookeeperConnectionDetails.class);
	}

	@Test
	void ignoresOtherContainers() {
		assertThat(detailsFor("", "redis:7")).isNull();
		assertThat(detailsFor("", "example.org/zookeeper-exporter:1")).isNull();
		assertThat(detailsFor("redis", "zookeeper:3.9")).isNull();
	}

	private static @Nullable ZookeeperConnectionDetails detailsFor(String connectionName, String image) {
		return new ZookeeperContainerConnectionDetailsFactory()
			.getConnectionDetails(TestContainerConnectionSources.genericContainer(connectionName, image));
	}

}
