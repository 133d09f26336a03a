package io.github.distlock.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.transaction.ConfigurableTransactionManager;
import org.springframework.transaction.TransactionExecutionListener;

/**
 * Adds a {@link TransactionExecutionListener} of distlock's to every transaction manager
 * of the context, also those the application declares itself (Spring Boot adds listener
 * beans only to the ones it auto-configures). The listener is looked up when the first
 * transaction manager is made, not when this post-processor is.
 */
final class TransactionListenerRegistrar implements BeanPostProcessor {

	private final ObjectProvider<? extends TransactionExecutionListener> listener;

	TransactionListenerRegistrar(ObjectProvider<? extends TransactionExecutionListener> listener) {
		this.listener = listener;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof ConfigurableTransactionManager manager) {
			TransactionExecutionListener added = this.listener.getIfAvailable();
			if (added != null && !manager.getTransactionExecutionListeners().contains(added)) {
				manager.addListener(added);
			}
		}
		return bean;
	}

}
