package io.github.distlock.interceptor;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;

import io.github.distlock.core.LockConfigurationException;

/**
 * Finds what fences the transactions of a fenced call ({@code fenced = true} on
 * {@code @DistributedLock}, {@code @WriteLock} or {@code @LeaderOnly}), by the shape of
 * the method's work: a method that returns its result has its transaction on the calling
 * thread ({@link TransactionFencing}: every one of the context, its database's and its
 * Kafka producers'); a reactive method or a Kotlin {@code suspend} function has it in its
 * pipeline ({@link ReactiveTransactionFencing}). A {@code CompletionStage} method's
 * transaction is neither, and cannot be fenced.
 */
final class FencedCalls {

	private FencedCalls() {
	}

	/**
	 * Check, when the annotation is parsed, that the call's transactions can be fenced.
	 * @param beanFactory the context's bean factory
	 * @param returnType how the method's work lasts
	 * @param description the annotation and the method, for messages
	 * @throws LockConfigurationException naming the method, the annotation, the value and
	 * what is missing
	 */
	static void check(@Nullable BeanFactory beanFactory, LockedReturnType returnType, String description) {
		if (returnType instanceof LockedReturnType.Stage) {
			throw new LockConfigurationException(description + ": fenced = true, but the method returns a "
					+ "CompletionStage, whose work runs on other threads after the call returned, so no transaction "
					+ "can take the lock's fence; make the method return its result (a JDBC or JPA transaction) or "
					+ "a Mono or Flux (an R2DBC transaction), or remove fenced = true");
		}
		if (returnType instanceof LockedReturnType.Reactive reactive) {
			ReactiveTransactionFencing fencing = (beanFactory != null)
					? beanFactory.getBeanProvider(ReactiveTransactionFencing.class).getIfAvailable() : null;
			if (fencing == null) {
				throw new LockConfigurationException(description + ": fenced = true on a "
						+ (reactive.suspending() ? "Kotlin suspend function" : "reactive method")
						+ ", but the application cannot fence reactive transactions: it needs spring-r2dbc, a "
						+ "ConnectionFactory and a reactive transaction manager (see "
						+ "docs/failure-model.md#fenced-transactions); add them, or remove fenced = true");
			}
			fencing.checkUsable(description);
			return;
		}
		TransactionFencing fencing = FencingCollaborators.find(beanFactory);
		if (fencing == null) {
			throw new LockConfigurationException(description + ": fenced = true, but the application cannot fence "
					+ "transactions: it needs spring-jdbc, a DataSource and a transaction manager (see "
					+ "docs/failure-model.md#fenced-transactions), or spring-kafka with a transactional producer "
					+ "factory (docs/kafka.md); add them, or remove fenced = true");
		}
		fencing.checkUsable(description);
	}

	/**
	 * The fencing of a reactive call, when it runs.
	 * @param beanFactory the context's bean factory
	 * @param description the annotation and the method, for messages
	 * @return the fencing
	 */
	static ReactiveTransactionFencing reactive(@Nullable BeanFactory beanFactory, String description) {
		ReactiveTransactionFencing fencing = (beanFactory != null)
				? beanFactory.getBeanProvider(ReactiveTransactionFencing.class).getIfAvailable() : null;
		if (fencing == null) {
			throw new LockConfigurationException(
					description + ": fenced = true, but the application cannot fence reactive transactions "
							+ "(no ReactiveTransactionFencing bean)");
		}
		return fencing;
	}

}
