package io.github.distlock.autoconfigure.kafka;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.core.ProducerFactory;

import io.github.distlock.kafka.FencedProducerFactory;
import io.github.distlock.kafka.KafkaFencing;

/**
 * Wraps every {@link ProducerFactory} bean in a {@link FencedProducerFactory}: templates
 * and transaction managers are injected with the wrapper, which is the factory itself
 * outside fenced calls.
 */
final class FencedProducerFactories implements BeanPostProcessor {

	private final ObjectProvider<KafkaFencing> fencing;

	FencedProducerFactories(ObjectProvider<KafkaFencing> fencing) {
		this.fencing = fencing;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof ProducerFactory<?, ?> factory && !(bean instanceof FencedProducerFactory)) {
			return wrap(factory);
		}
		return bean;
	}

	private <K, V> FencedProducerFactory<K, V> wrap(ProducerFactory<K, V> factory) {
		return new FencedProducerFactory<>(factory, this.fencing.getObject());
	}

}
