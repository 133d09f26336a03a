package io.github.distlock.autoconfigure.actuate;

import io.micrometer.observation.ObservationRegistry;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.context.annotation.Bean;

import io.github.distlock.actuate.LockObservationConvention;
import io.github.distlock.actuate.LockObservations;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.Locks;

/**
 * {@link AutoConfiguration Auto-configuration} of the {@code distlock.lock.acquire} and
 * {@code distlock.lock.hold} observations of each lock acquisition and hold, when an
 * {@link ObservationRegistry} is present
 * ({@code management.observations.enable.distlock=false} turns them off); with a meter
 * registry, Boot's default meter handler derives the lock meters from them. A
 * {@link LockObservationConvention} bean replaces the default convention.
 */
@AutoConfiguration(after = { DistlockAutoConfiguration.class, ObservationAutoConfiguration.class })
@ConditionalOnClass({ ObservationRegistry.class, ObservationAutoConfiguration.class, CuratorFramework.class })
@ConditionalOnBean({ ObservationRegistry.class, Locks.class })
public final class DistlockObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockObservations distlockLockObservations(ObservationRegistry observationRegistry, Locks locks,
			ObjectProvider<LockObservationConvention> convention) {
		LockObservations observations = new LockObservations(observationRegistry, convention.getIfUnique());
		locks.addEventListener(observations);
		return observations;
	}

}
