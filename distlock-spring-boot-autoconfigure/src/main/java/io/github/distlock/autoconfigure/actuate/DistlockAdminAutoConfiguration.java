package io.github.distlock.autoconfigure.actuate;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.audit.listener.AuditApplicationEvent;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

import io.github.distlock.actuate.DistlockAdminOperations;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.scheduling.DistlockSchedulingAutoConfiguration;
import io.github.distlock.core.Locks;
import io.github.distlock.core.ScheduledJobs;

/**
 * {@link AutoConfiguration Auto-configuration} of operators' actions on the cluster's
 * locks and jobs ({@link DistlockAdminOperations}), audited and counted, which the
 * {@code distlock} endpoint and the console share. Whether HTTP exposes the actions is
 * {@code distlock.admin.enabled}'s to say; the endpoint's pause and resume of a job use
 * them either way.
 */
@AutoConfiguration(after = { DistlockAutoConfiguration.class, DistlockSchedulingAutoConfiguration.class })
@ConditionalOnClass({ AuditApplicationEvent.class, CuratorFramework.class })
@ConditionalOnBean(Locks.class)
public final class DistlockAdminAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	DistlockAdminOperations distlockAdminOperations(Locks locks, ObjectProvider<ScheduledJobs> jobs,
			ApplicationEventPublisher events) {
		return new DistlockAdminOperations(locks.admin(), jobs.getIfAvailable(), events);
	}

}
