package io.github.distlock.autoconfigure.testcontainers;

import java.util.List;

import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactory;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsNotFoundException;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.TestContextManager;

import io.github.distlock.autoconfigure.ZookeeperConnectionDetails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Tests for {@link ZookeeperContainerConnectionDetailsFactory} that need no Docker: the
 * factory is registered where Spring Boot looks for it, and Spring Boot's own test
 * support turns a {@code @ServiceConnection} container field of a test class (a container
 * that is never started) into distlock's connection details, or finds none for other
 * images. {@code ZookeeperServiceConnectionTests} in the sample starts a real container
 * where Docker exists.
 */
class ZookeeperContainerConnectionDetailsFactoryTests {

	@Test
	void factoryIsRegisteredForSpringBoot() {
		List<ConnectionDetailsFactory> factories = SpringFactoriesLoader.forDefaultResourceLocation()
			.load(ConnectionDetailsFactory.class, FailureHandler.logging(LogFactory.getLog(getClass())));
		assertThat(factories).hasAtLeastOneElementOfType(ZookeeperContainerConnectionDetailsFactory.class);
	}

	@Test
	@EnabledIf("dockerAvailable")
	void acceptsAContainerOfAZookeeperImage() throws Exception {
		assertThat(connectionDetailsOf(OfficialImage.class)).isInstanceOf(ZookeeperConnectionDetails.class);
		assertThat(connectionDetailsOf(BitnamiImage.class)).isInstanceOf(ZookeeperConnectionDetails.class);
	}

	@Test
	@EnabledIf("dockerAvailable")
	void acceptsAnyImageNamedZookeeperByTheAnnotation() throws Exception {
		assertThat(connectionDetailsOf(ImageNamedByTheAnnotation.class)).isInstanceOf(ZookeeperConnectionDetails.class);
	}

	@Test
	@EnabledIf("dockerAvailable")
	void ignoresOtherContainers() {
		for (Class<?> testClass : List.of(OtherImage.class, ImageWhoseNameOnlyStartsWithZookeeper.class,
				ZookeeperImageNamedOtherwiseByTheAnnotation.class)) {
			assertThatException().as(testClass.getSimpleName())
				.isThrownBy(() -> connectionDetailsOf(testClass))
				.havingRootCause()
				.isInstanceOf(ConnectionDetailsNotFoundException.class);
		}
	}

	/**
	 * Spring Boot resolves a {@code @ServiceConnection} container's image name through
	 * Docker.
	 */
	static boolean dockerAvailable() {
		return DockerClientFactory.instance().isDockerAvailable();
	}

	/**
	 * The connection details Spring Boot's test context makes of a test class's fields.
	 */
	private static ZookeeperConnectionDetails connectionDetailsOf(Class<?> testClass) throws Exception {
		ApplicationContext context = new TestContextManager(testClass).getTestContext().getApplicationContext();
		return context.getBean(ZookeeperConnectionDetails.class);
	}

	@Configuration(proxyBeanMethods = false)
	static class NoBeans {

	}

	@ContextConfiguration(classes = NoBeans.class)
	static class OfficialImage {

		@ServiceConnection
		static GenericContainer<?> zookeeper = new GenericContainer<>("zookeeper:3.9");

	}

	@ContextConfiguration(classes = NoBeans.class)
	static class BitnamiImage {

		@ServiceConnection
		static GenericContainer<?> zookeeper = new GenericContainer<>("bitnami/zookeeper:3.9");

	}

	@ContextConfiguration(classes = NoBeans.class)
	static class ImageNamedByTheAnnotation {

		@ServiceConnection(name = "zookeeper")
		static GenericContainer<?> zookeeper = new GenericContainer<>("example.org/my-coordination:1");

	}

	@ContextConfiguration(classes = NoBeans.class)
	static class OtherImage {

		@ServiceConnection
		static GenericContainer<?> redis = new GenericContainer<>("redis:7");

	}

	@ContextConfiguration(classes = NoBeans.class)
	static class ImageWhoseNameOnlyStartsWithZookeeper {

		@ServiceConnection
		static GenericContainer<?> exporter = new GenericContainer<>("example.org/zookeeper-exporter:1");

	}

	@ContextConfiguration(classes = NoBeans.class)
	static class ZookeeperImageNamedOtherwiseByTheAnnotation {

		@ServiceConnection(name = "redis")
		static GenericContainer<?> zookeeper = new GenericContainer<>("zookeeper:3.9");

	}

}
