package io.github.distlock.autoconfigure.actuate;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.github.distlock.actuate.DistlockAdminOperations;
import io.github.distlock.actuate.DistlockAdminWebExtension;
import io.github.distlock.actuate.DistlockEndpoint;
import io.github.distlock.actuate.DistlockEndpointWebExtension;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.Locks;
import io.github.distlock.core.ScheduledJobs;

/**
 * {@link AutoConfiguration Auto-configuration} of the {@code distlock} actuator endpoint,
 * when Spring Boot's actuator is present and the endpoint is available (exposed, for
 * instance, with {@code management.endpoints.web.exposure.include=distlock}); over HTTP
 * with operators' actions when {@code distlock.admin.enabled} is on.
 */
@AutoConfiguration(after = { DistlockAutoConfiguration.class, DistlockAdminAutoConfiguration.class })
@ConditionalOnClass({ Endpoint.class, CuratorFramework.class })
@ConditionalOnBean(Locks.class)
@ConditionalOnAvailableEndpoint(DistlockEndpoint.class)
public final class DistlockEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	DistlockEndpoint distlockEndpoint(Locks locks, ObjectProvider<Leadership> leadership,
			ObjectProvider<ScheduledJobs> jobs, ObjectProvider<DistlockAdminOperations> operations) {
		return new DistlockEndpoint(locks, leadership.getIfAvailable(), jobs.getIfAvailable(),
				operations.getIfAvailable());
	}

	// With the admin switch on, the endpoint's one web extension also has the actions.
	@Bean
	@ConditionalOnMissingBean(DistlockEndpointWebExtension.class)
	@ConditionalOnBooleanProperty("distlock.admin.enabled")
	@ConditionalOnBean(DistlockAdminOperations.class)
	DistlockAdminWebExtension distlockAdminWebExtension(DistlockEndpoint distlockEndpoint,
			DistlockAdminOperations operations) {
		return new DistlockAdminWebExtension(distlockEndpoint, operations);
	}

	@Bean
	@ConditionalOnMissingBean
	DistlockEndpointWebExtension distlockEndpointWebExtension(DistlockEndpoint distlockEndpoint) {
		return new DistlockEndpointWebExtension(distlockEndpoint);
	}

}
