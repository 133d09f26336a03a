package io.github.distlock.autoconfigure.actuate;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.context.annotation.Bean;

import io.github.distlock.actuate.DistlockHealthIndicator;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.DistlockProperties;
import io.github.distlock.autoconfigure.PropertyChecks;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.Locks;

/**
 * {@link AutoConfiguration Auto-configuration} of the {@code distlock} health indicator,
 * when Spring Boot's health support is present
 * ({@code management.health.distlock.enabled} turns it off;
 * {@code distlock.health.timeout} bounds its probe).
 */
@AutoConfiguration(after = DistlockAutoConfiguration.class)
@ConditionalOnClass({ AbstractHealthIndicator.class, CuratorFramework.class })
@ConditionalOnBean({ CuratorFramework.class, Locks.class })
@ConditionalOnEnabledHealthIndicator("distlock")
public final class DistlockHealthContributorAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(name = "distlockHealthIndicator")
	DistlockHealthIndicator distlockHealthIndicator(CuratorFramework curatorFramework, Locks locks,
			DistlockProperties properties, ObjectProvider<Leadership> leadership) {
		Duration timeout = PropertyChecks.positive("distlock.health.timeout", properties.getHealth().getTimeout());
		DistlockHealthIndicator indicator = new DistlockHealthIndicator(curatorFramework, locks, timeout);
		leadership.ifAvailable(indicator::setLeadership);
		return indicator;
	}

}
