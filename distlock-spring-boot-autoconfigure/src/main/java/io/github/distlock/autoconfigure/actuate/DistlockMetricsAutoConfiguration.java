package io.github.distlock.autoconfigure.actuate;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.boot.actuate.audit.listener.AuditApplicationEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.actuate.AdminActionMetrics;
import io.github.distlock.actuate.DeadlockWatch;
import io.github.distlock.actuate.JobMetrics;
import io.github.distlock.actuate.LeadershipMetrics;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.leadership.DistlockLeadershipAutoConfiguration;
import io.github.distlock.autoconfigure.scheduling.DistlockSchedulingAutoConfiguration;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.Locks;
import io.github.distlock.curator.CuratorScheduledJobs;

/**
 * {@link AutoConfiguration Auto-configuration} of the Micrometer meters an observation
 * cannot give: the {@code distlock.leadership.*} and {@code distlock.job.*} meters, when
 * a {@link MeterRegistry} is present. The lock meters come from the lock observations
 * ({@link DistlockObservationAutoConfiguration}).
 */
@AutoConfiguration(after = { DistlockAutoConfiguration.class, DistlockLeadershipAutoConfiguration.class,
		DistlockSchedulingAutoConfiguration.class, MetricsAutoConfiguration.class,
		CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class })
@ConditionalOnClass({ MeterRegistry.class, MetricsAutoConfiguration.class, CuratorFramework.class })
@ConditionalOnBean({ MeterRegistry.class, Locks.class })
public final class DistlockMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(Leadership.class)
	LeadershipMetrics distlockLeadershipMetrics(MeterRegistry meterRegistry, Leadership leadership) {
		LeadershipMetrics metrics = new LeadershipMetrics(meterRegistry, leadership);
		leadership.addListener(metrics);
		return metrics;
	}

	@Bean
	@ConditionalOnBean(LeadershipMetrics.class)
	ApplicationListener<ApplicationStartedEvent> distlockLeadershipGauges(LeadershipMetrics metrics) {
		// The groups are joined once the context has started.
		return (event) -> metrics.bindGroups();
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(CuratorScheduledJobs.class)
	JobMetrics distlockJobMetrics(MeterRegistry meterRegistry, CuratorScheduledJobs jobs) {
		JobMetrics metrics = new JobMetrics(meterRegistry, jobs);
		jobs.addListener(metrics);
		return metrics;
	}

	@Bean
	@ConditionalOnBean(JobMetrics.class)
	ApplicationListener<ApplicationStartedEvent> distlockJobGauges(JobMetrics metrics) {
		// The jobs are registered once the context is refreshed.
		return (event) -> metrics.bindJobs();
	}

	@Bean
	@ConditionalOnBean(DeadlockWatch.class)
	MeterBinder distlockDeadlocksGauge(DeadlockWatch watch) {
		return (registry) -> Gauge.builder("distlock.deadlocks", watch, DeadlockWatch::deadlocks)
			.description("Deadlocks between lock holders found by the last deadlock check: cycles in the "
					+ "cluster's wait-for graph")
			.register(registry);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(AuditApplicationEvent.class)
	static class AdminActionMetricsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		AdminActionMetrics distlockAdminActionMetrics(MeterRegistry meterRegistry) {
			return new AdminActionMetrics(meterRegistry);
		}

	}

}
