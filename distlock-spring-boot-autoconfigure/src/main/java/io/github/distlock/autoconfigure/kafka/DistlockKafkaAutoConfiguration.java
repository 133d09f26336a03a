package io.github.distlock.autoconfigure.kafka;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.ProducerFactory;

import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.curator.GuardedWrites;
import io.github.distlock.kafka.FencedProducerFactory;
import io.github.distlock.kafka.KafkaFencing;
import io.github.distlock.kafka.KafkaTransactionalIds;

/**
 * Fenced Kafka writes, when Spring for Apache Kafka is on the class path: the
 * {@link KafkaFencing} that {@code fenced = true} enters, and every
 * {@link ProducerFactory} bean wrapped in a {@link FencedProducerFactory}, so that the
 * application's {@code KafkaTemplate} sends through the lock's transactional producer
 * inside a fenced call. See {@code docs/kafka.md}.
 */
@AutoConfiguration(after = DistlockAutoConfiguration.class)
@ConditionalOnClass({ ProducerFactory.class, KafkaFencing.class })
@ConditionalOnBean(CuratorLocks.class)
@ConditionalOnBooleanProperty(name = "distlock.kafka.enabled", matchIfMissing = true)
public final class DistlockKafkaAutoConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static KafkaFencing kafkaFencing(@Lazy CuratorFramework client, ObjectProvider<ProducerFactory<?, ?>> factories,
			Environment environment) {
		// Bound from the environment, not taken from the properties bean: the fencing
		// is asked for while beans are post-processed, too early for that bean.
		Binder binder = Binder.get(environment);
		String prefix = binder.bind("distlock.kafka.transactional-id-prefix", String.class)
			.orElse(KafkaTransactionalIds.DEFAULT_PREFIX);
		Duration closeTimeout = binder.bind("distlock.kafka.close-timeout", Duration.class)
			.orElse(Duration.ofSeconds(5));
		return new KafkaFencing(new KafkaTransactionalIds(prefix), new GuardedWrites(client),
				() -> factories.orderedStream().anyMatch(ProducerFactory::transactionCapable), closeTimeout);
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static BeanPostProcessor fencedProducerFactories(ObjectProvider<KafkaFencing> fencing) {
		return new FencedProducerFactories(fencing);
	}

}
