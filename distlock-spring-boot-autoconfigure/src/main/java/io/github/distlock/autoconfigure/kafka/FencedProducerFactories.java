package io.github.distlock.autoconfigure.kafka;

import org.aopalliance.intercept.MethodInterceptor;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.util.ClassUtils;

import io.github.distlock.kafka.FencedProducerFactory;
import io.github.distlock.kafka.KafkaFencing;

/**
 * Makes every {@link ProducerFactory} bean hand out fenced producers: the bean becomes a
 * proxy with all of its interfaces (a {@code DefaultKafkaProducerFactory} is also an
 * application listener and a lifecycle, which the context looks it up as), whose
 * {@link ProducerFactory} methods are a {@link FencedProducerFactory}'s around it, and
 * which is the factory itself outside fenced calls.
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

	private <K, V> Object wrap(ProducerFactory<K, V> factory) {
		FencedProducerFactory<K, V> fenced = new FencedProducerFactory<>(factory, this.fencing.getObject());
		ProxyFactory proxy = new ProxyFactory(factory);
		proxy.setInterfaces(ClassUtils.getAllInterfaces(factory));
		proxy.addAdvice((MethodInterceptor) (invocation) -> {
			if (invocation.getMethod().getDeclaringClass() == ProducerFactory.class) {
				return AopUtils.invokeJoinpointUsingReflection(fenced, invocation.getMethod(),
						invocation.getArguments());
			}
			return invocation.proceed();
		});
		return proxy.getProxy(ClassUtils.getDefaultClassLoader());
	}

}
