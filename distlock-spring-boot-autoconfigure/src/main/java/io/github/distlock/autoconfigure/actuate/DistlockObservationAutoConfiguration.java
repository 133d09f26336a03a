package io.github.distlock.autoconfigure.actuate;

import io.micrometer.observation.ObservationRegistry;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.context.annotation.Bean;

import io.github.distlock.actuate.LockObservations;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.Locks;

/**
 * {@link AutoConfiguration Auto-configuration} of the {@code distlock.lock} observation
 * around each lock acquisition and hold, when an {@link ObservationRegistry} is present
 * ({@code management.observations.enable.distlock=false} turns it off).
 */
@AutoConfiguration(after = { DistlockAutoConfiguration.class, ObservationAutoConfiguration.class })
@ConditionalOnClass({ ObservationRegistry.class, ObservationAutoConfiguration.class, CuratorFramework.class })
@ConditionalOnBean({ ObservationRegistry.class, Locks.class })
public final class DistlockObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockObservations distlockLockObservations(ObservationRegistry observationRegistry, Locks locks) {
		LockObservations observations = new LockObservations(observationRegistry);
		locks.addEventListener(observations);
		return observations;
	}

}
