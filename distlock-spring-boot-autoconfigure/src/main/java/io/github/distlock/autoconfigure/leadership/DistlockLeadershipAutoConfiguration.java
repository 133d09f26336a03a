package io.github.distlock.autoconfigure.leadership;

import java.util.Map;
import java.util.Optional;

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
import io.github.distlock.core.LeaderChangedEvent;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipHandOffEvent;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.core.Locks;
import io.github.distlock.curator.CuratorLeadership;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.interceptor.LockInterceptor;
import io.github.distlock.interceptor.LeaderOnlyOperationSource;
import io.github.distlock.interceptor.OperationSourceAdvisor;
import io.github.distlock.interceptor.PartitionOwnerInterceptor;
import io.github.distlock.interceptor.PartitionOwnerOperationSource;

/**
 * {@link AutoConfiguration Auto-configuration} of leader election: the {@link Leadership}
 * bean on distlock's engine, whose tenures are published as
 * {@link LeadershipGrantedEvent} and {@link LeadershipRevokedEvent}; the advisors of
 * {@code @LeaderOnly} and {@code @PartitionOwner} methods; and this instance's membership
 * in the elections of their groups and of {@code distlock.leadership.groups}, and in
 * their partitioned groups.
 */
@AutoConfiguration(after = DistlockAutoConfiguration.class)
@ConditionalOnBean(CuratorLocks.class)
public final class DistlockLeadershipAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LeaderOnlyOperationSource leaderOnlyOperationSource(ObjectProvider<Leadership> leadership) {
		return new LeaderOnlyOperationSource(leadership::getObject);
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean(name = "leaderOnlyAdvisor")
	static OperationSourceAdvisor leaderOnlyAdvisor(LeaderOnlyOperationSource leaderOnlyOperationSource,
			ObjectProvider<Locks> locks, ObjectProvider<DistlockProperties> properties) {
		// An interceptor of its own, so the executors of locked calls, and their return
		// types, are shared.
		OperationSourceAdvisor advisor = new OperationSourceAdvisor(leaderOnlyOperationSource,
				new LockInterceptor(leaderOnlyOperationSource, locks::getObject));
		advisor.setOrderSupplier(() -> {
			DistlockProperties distlock = properties.getIfAvailable();
			int lockOrder = (distlock != null) ? distlock.getLock().getOrder() : Ordered.LOWEST_PRECEDENCE - 1;
			// Just outside the lock: leadership is checked before a lock is taken.
			return (lockOrder == Ordered.HIGHEST_PRECEDENCE) ? lockOrder : lockOrder - 1;
		});
		return advisor;
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static PartitionOwnerOperationSource partitionOwnerOperationSource() {
		return new PartitionOwnerOperationSource();
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean(name = "partitionOwnerAdvisor")
	static OperationSourceAdvisor partitionOwnerAdvisor(PartitionOwnerOperationSource partitionOwnerOperationSource,
			ObjectProvider<LeadershipMembership> membership, ObjectProvider<DistlockProperties> properties) {
		OperationSourceAdvisor advisor = new OperationSourceAdvisor(partitionOwnerOperationSource,
				new PartitionOwnerInterceptor(partitionOwnerOperationSource, (group) -> {
					LeadershipMembership found = membership.getIfAvailable();
					return (found != null) ? found.partitions(group) : Optional.empty();
				}));
		advisor.setOrderSupplier(() -> {
			DistlockProperties distlock = properties.getIfAvailable();
			int lockOrder = (distlock != null) ? distlock.getLock().getOrder() : Ordered.LOWEST_PRECEDENCE - 1;
			// Just outside the lock, as @LeaderOnly: ownership is checked before a lock
			// is taken.
			return (lockOrder == Ordered.HIGHEST_PRECEDENCE) ? lockOrder : lockOrder - 1;
		});
		return advisor;
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(Leadership.class)
	CuratorLeadership distlockLeadership(CuratorLocks locks, DistlockProperties properties,
			ApplicationEventPublisher publisher) {
		String memberId = properties.getLeadership().getMemberId();
		if (memberId != null && memberId.isBlank()) {
			throw new IllegalArgumentException(
					"distlock.leadership.member-id must not be blank, was '" + memberId + "'");
		}
		// Unset: spring.application.name@host:pid, from the locks.
		CuratorLeadership leadership = (memberId != null) ? new CuratorLeadership(locks, memberId)
				: new CuratorLeadership(locks);
		DistlockProperties.Leadership config = properties.getLeadership();
		if (config.getPreferredDelay() == null || config.getPreferredDelay().isNegative()) {
			throw new IllegalArgumentException(
					"distlock.leadership.preferred-delay must not be negative, was " + config.getPreferredDelay());
		}
		leadership.preferred().setDelay(config.getPreferredDelay());
		leadership.preferred().setPreferredGroups(config.getPreferredGroups());
		leadership.preferred().setPreferred(config.isPreferred());
		leadership.addListener(new LeadershipListener() {

			@Override
			public void granted(LeadershipGrantedEvent event) {
				publisher.publishEvent(event);
			}

			@Override
			public void revoked(LeadershipRevokedEvent event) {
				publisher.publishEvent(event);
			}

			@Override
			public void leaderChanged(LeaderChangedEvent event) {
				publisher.publishEvent(event);
			}

			@Override
			public void handedOff(LeadershipHandOffEvent event) {
				publisher.publishEvent(event);
			}

		});
		return leadership;
	}

	@Bean
	@ConditionalOnMissingBean
	LeadershipMembership distlockLeadershipMembership(Leadership leadership, DistlockProperties properties,
			ObjectProvider<LeaderOnlyOperationSource> source,
			ObjectProvider<PartitionOwnerOperationSource> partitionOwnerSource) {
		DistlockProperties.Leadership config = properties.getLeadership();
		return new LeadershipMembership(leadership, () -> {
			LeaderOnlyOperationSource found = source.getIfAvailable();
			return (found != null) ? found.groups() : java.util.Set.of();
		}, config.getGroups(), config.getObserve(), config.isRequireReadiness() || config.isGiveUpWhenRefusingTraffic(),
				() -> {
					PartitionOwnerOperationSource found = partitionOwnerSource.getIfAvailable();
					return (found != null) ? found.groups() : Map.of();
				});
	}

}
