package io.github.distlock.autoconfigure.scheduling;

import java.net.InetAddress;
import java.time.Clock;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.ScheduledJobs;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.curator.CuratorScheduledJobs;
import io.github.distlock.interceptor.OperationSourceAdvisor;
import io.github.distlock.scheduling.ScheduledOnceInterceptor;
import io.github.distlock.scheduling.ScheduledOnceOperationSource;
import io.github.distlock.scheduling.ScheduledOnceRegistrar;

/**
 * {@link AutoConfiguration Auto-configuration} of jobs that run once per slot of their
 * schedule across the cluster: the {@link ScheduledJobs} bean on distlock's locks, the
 * advisor of {@code @ScheduledOnce} methods and the registrar that makes their jobs known
 * and catches up on missed slots at start. Every decision's time comes from the
 * application's {@link Clock} bean when it has exactly one, else from the system clock
 * (UTC).
 */
@AutoConfiguration(after = DistlockAutoConfiguration.class)
@ConditionalOnBean(CuratorLocks.class)
public final class DistlockSchedulingAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean(name = "scheduledOnceAdvisor")
	static OperationSourceAdvisor scheduledOnceAdvisor(ObjectProvider<ScheduledJobs> jobs, ObjectProvider<Clock> clock,
			Environment environment) {
		ScheduledOnceOperationSource source = new ScheduledOnceOperationSource();
		OperationSourceAdvisor advisor = new OperationSourceAdvisor(source,
				new ScheduledOnceInterceptor(source, jobs::getObject, () -> clock.getIfUnique(Clock::systemUTC)));
		// Bound from the environment, not taken from the properties bean: advisors are
		// made while post-processors are still being registered, and would pull that
		// bean in too early (ineligible for some post-processors).
		int lockOrder = Binder.get(environment)
			.bind("distlock.lock.order", Integer.class)
			.orElse(Ordered.LOWEST_PRECEDENCE - 1);
		// Outside the lock advisors: a firing that skips takes no other lock.
		advisor.setOrder((lockOrder <= Ordered.HIGHEST_PRECEDENCE + 1) ? lockOrder : lockOrder - 2);
		return advisor;
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static ScheduledOnceRegistrar scheduledOnceRegistrar(ObjectProvider<ScheduledJobs> jobs) {
		return new ScheduledOnceRegistrar(jobs::getObject);
	}

	@Bean
	@ConditionalOnMissingBean(ScheduledJobs.class)
	CuratorScheduledJobs distlockScheduledJobs(CuratorLocks locks, ObjectProvider<Clock> clock,
			Environment environment) {
		String application = environment.getProperty("spring.application.name", "application");
		return new CuratorScheduledJobs(locks, clock.getIfUnique(Clock::systemUTC),
				application + "@" + hostName() + "/" + ProcessHandle.current().pid());
	}

	private static String hostName() {
		try {
			return InetAddress.getLocalHost().getHostName();
		}
		catch (Exception ex) {
			return "localhost";
		}
	}

}
