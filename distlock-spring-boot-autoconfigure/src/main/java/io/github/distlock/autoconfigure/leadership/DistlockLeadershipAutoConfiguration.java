package io.github.distlock.autoconfigure.leadership;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.Ordered;

import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.DistlockProperties;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.core.Locks;
import io.github.distlock.curator.CuratorLeadership;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.interceptor.LeaderOnlyAdvisor;
import io.github.distlock.interceptor.LeaderOnlyOperationSource;

/**
 * {@link AutoConfiguration Auto-configuration} of leader election: the {@link Leadership}
 * bean on distlock's engine, whose tenures are published as
 * {@link LeadershipGrantedEvent} and {@link LeadershipRevokedEvent}; the advisor of
 * {@code @LeaderOnly} methods; and this instance's membership in the elections of their
 * groups and of {@code distlock.leadership.groups}.
 */
@AutoConfiguration(after = DistlockAutoConfiguration.class)
@ConditionalOnBean(CuratorLocks.class)
public final class DistlockLeadershipAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LeaderOnlyAdvisor leaderOnlyAdvisor(ObjectProvider<Leadership> leadership, ObjectProvider<Locks> locks,
			ObjectProvider<DistlockProperties> properties) {
		LeaderOnlyAdvisor advisor = new LeaderOnlyAdvisor(new LeaderOnlyOperationSource(leadership::getObject),
				locks::getObject);
		advisor.setOrderSupplier(() -> {
			DistlockProperties distlock = properties.getIfAvailable();
			int lockOrder = (distlock != null) ? distlock.getLock().getOrder() : Ordered.LOWEST_PRECEDENCE - 1;
			// Just outside the lock: leadership is checked before a lock is taken.
			return (lockOrder == Ordered.HIGHEST_PRECEDENCE) ? lockOrder : lockOrder - 1;
		});
		return advisor;
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(Leadership.class)
	CuratorLeadership distlockLeadership(CuratorLocks locks, ApplicationEventPublisher publisher) {
		CuratorLeadership leadership = new CuratorLeadership(locks);
		leadership.addListener(new LeadershipListener() {

			@Override
			public void granted(LeadershipGrantedEvent event) {
				publisher.publishEvent(event);
			}

			@Override
			public void revoked(LeadershipRevokedEvent event) {
				publisher.publishEvent(event);
			}

		});
		return leadership;
	}

	@Bean
	@ConditionalOnMissingBean
	LeadershipMembership distlockLeadershipMembership(Leadership leadership, DistlockProperties properties,
			ObjectProvider<LeaderOnlyAdvisor> advisor) {
		DistlockProperties.Leadership config = properties.getLeadership();
		return new LeadershipMembership(leadership, () -> {
			LeaderOnlyAdvisor found = advisor.getIfAvailable();
			return (found != null) ? found.source().groups() : java.util.Set.of();
		}, config.getGroups(), config.isGiveUpWhenRefusingTraffic());
	}

}
