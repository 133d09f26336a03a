package io.github.distlock.test;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.distlock.core.Locks;

/**
 * Lets a node's {@link LockRecorder} follow the locks of the node's {@link Locks}, and
 * makes the recorder a bean of the node.
 */
record RecorderRegistrar(LockRecorder recorder) implements BeanPostProcessor {

	/** Bean name of the kit's recorder in a node's context. */
	static final String BEAN_NAME = "distlockLockRecorder";

	/** Register the recorder and the registrar in a context not yet refreshed. */
	static void register(ConfigurableApplicationContext context, LockRecorder recorder) {
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		beanFactory.registerSingleton(BEAN_NAME, recorder);
		beanFactory.addBeanPostProcessor(new RecorderRegistrar(recorder));
	}

	/** An initializer that gives the context the recorder. */
	static ApplicationContextInitializer<ConfigurableApplicationContext> initializer(LockRecorder recorder) {
		return (context) -> register(context, recorder);
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof Locks locks) {
			locks.addEventListener(this.recorder);
		}
		return bean;
	}

}
