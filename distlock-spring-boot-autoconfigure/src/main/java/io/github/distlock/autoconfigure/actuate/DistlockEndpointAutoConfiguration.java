package io.github.distlock.autoconfigure.actuate;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.github.distlock.actuate.DistlockEndpoint;
import io.github.distlock.actuate.DistlockEndpointWebExtension;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.Locks;
import io.github.distlock.core.ScheduledJobs;

/**
 * {@link AutoConfiguration Auto-configuration} of the {@code distlock} actuator endpoint,
 * when Spring Boot's actuator is present and the endpoint is available (exposed, for
 * instance, with {@code management.endpoints.web.exposure.include=distlock}).
 */
@AutoConfiguration(after = DistlockAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, CuratorFramework.class })
@ConditionalOnBean(Locks.class)
@ConditionalOnAvailableEndpoint(DistlockEndpoint.class)
public final class DistlockEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	DistlockEndpoint distlockEndpoint(Locks locks, ObjectProvider<Leadership> leadership,
			ObjectProvider<ScheduledJobs> jobs) {
		return new DistlockEndpoint(locks, leadership.getIfAvailable(), jobs.getIfAvailable());
	}

	@Bean
	@ConditionalOnMissingBean
	DistlockEndpointWebExtension distlockEndpointWebExtension(DistlockEndpoint distlockEndpoint) {
		return new DistlockEndpointWebExtension(distlockEndpoint);
	}

}
