package io.github.distlock.autoconfigure.actuate;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import io.github.distlock.actuate.DistlockEndpoint;
import io.github.distlock.actuate.DistlockEndpointWebExtension;
import io.github.distlock.actuate.DistlockHealthIndicator;
import io.github.distlock.actuate.LockObservations;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the health, endpoint, metrics and observation auto-configurations.
 */
class DistlockActuatorAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final ApplicationContextRunner contextRunner = DistlockContextRunners
		.applicationContextRunner(zookeeper, DistlockAutoConfiguration.class,
				DistlockHealthContributorAutoConfiguration.class, EndpointAutoConfiguration.class,
				DistlockEndpointAutoConfiguration.class, DistlockMetricsAutoConfiguration.class,
				DistlockObservationAutoConfiguration.class)
		.withPropertyValues("management.endpoints.web.exposure.include=distlock");

	@Test
	void runShouldCreateIndicatorAndEndpoint() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(DistlockHealthIndicator.class)
				.hasSingleBean(DistlockEndpoint.class)
				.hasSingleBean(DistlockEndpointWebExtension.class);
			assertThat(context).hasBean("distlockHealthIndicator");
		});
	}

	@Test
	void runShouldGiveTheIndicatorTheConfiguredProbeTimeout() {
		this.contextRunner.run((context) -> assertThat(context.getBean(DistlockHealthIndicator.class).getProbeTimeout())
			.isEqualTo(Duration.ofSeconds(2)));
		this.contextRunner.withPropertyValues("distlock.health.timeout=750ms")
			.run((context) -> assertThat(context.getBean(DistlockHealthIndicator.class).getProbeTimeout())
				.isEqualTo(Duration.ofMillis(750)));
	}

	@Test
	void runWithANonPositiveProbeTimeoutShouldFailNamingTheProperty() {
		this.contextRunner.withPropertyValues("distlock.health.timeout=0s")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("distlock.health.timeout")
				.hasMessageContaining("'0ms'")
				.hasMessageContaining("must be a positive duration"));
	}

	@Test
	void runWhenDisabledShouldNotCreateIndicator() {
		this.contextRunner.withPropertyValues("management.health.distlock.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(DistlockHealthIndicator.class));
	}

	@Test
	void runWhenEndpointNotExposedShouldNotCreateEndpoint() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=health")
			.run((context) -> assertThat(context).doesNotHaveBean(DistlockEndpoint.class)
				.doesNotHaveBean(DistlockEndpointWebExtension.class));
	}

	@Test
	void runWithoutActuatorShouldStillGiveLocks() {
		this.contextRunner
			.withClassLoader(new FilteredClassLoader(AbstractHealthIndicator.class,
					org.springframework.boot.actuate.endpoint.annotation.Endpoint.class))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(io.github.distlock.core.Locks.class);
				assertThat(context).doesNotHaveBean(DistlockHealthIndicator.class)
					.doesNotHaveBean(DistlockEndpoint.class);
			});
	}

	@Test
	void runWhenDistlockIsDisabledShouldCreateNothing() {
		this.contextRunner.withPropertyValues("distlock.enabled=false")
			.withBean(SimpleMeterRegistry.class)
			.run((context) -> assertThat(context).doesNotHaveBean(DistlockHealthIndicator.class)
				.doesNotHaveBean(DistlockEndpoint.class)
				.doesNotHaveBean(LockObservations.class));
	}

	@Test
	void runWithRegistriesShouldCreateObservations() {
		this.contextRunner.withBean(SimpleMeterRegistry.class)
			.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.run((context) -> assertThat(context).hasSingleBean(LockObservations.class));
	}

	@Test
	void runWithoutRegistriesShouldNotCreateObservations() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(LockObservations.class));
	}

	@Test
	void runWithoutMicrometerShouldStillGiveLocks() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("io.micrometer"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LockObservations.class));
	}

}
