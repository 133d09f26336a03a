package io.github.distlock.autoconfigure;

import java.util.function.Predicate;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.transaction.ConfigurableTransactionManager;
import org.springframework.transaction.TransactionExecutionListener;

/**
 * Adds a {@link TransactionExecutionListener} of distlock's to every transaction manager
 * of the context, also those the application declares itself (Spring Boot adds listener
 * beans only to the ones it auto-configures), unless the listener does not apply to it.
 * The listener is looked up when the first transaction manager is made, not when this
 * post-processor is.
 */
final class TransactionListenerRegistrar implements BeanPostProcessor {

	private final ObjectProvider<? extends TransactionExecutionListener> listener;

	private final Predicate<ConfigurableTransactionManager> applies;

	TransactionListenerRegistrar(ObjectProvider<? extends TransactionExecutionListener> listener) {
		this(listener, (manager) -> true);
	}

	TransactionListenerRegistrar(ObjectProvider<? extends TransactionExecutionListener> listener,
			Predicate<ConfigurableTransactionManager> applies) {
		this.listener = listener;
		this.applies = applies;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof ConfigurableTransactionManager manager && this.applies.test(manager)) {
			TransactionExecutionListener added = this.listener.getIfAvailable();
			if (added != null && !manager.getTransactionExecutionListeners().contains(added)) {
				manager.addListener(added);
			}
		}
		return bean;
	}

}
