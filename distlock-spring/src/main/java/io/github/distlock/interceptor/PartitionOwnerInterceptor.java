package io.github.distlock.interceptor;

import java.util.Optional;
import java.util.function.Function;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.expression.EvaluationException;

import io.github.distlock.annotation.OnNotOwner;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.NotPartitionOwnerException;
import io.github.distlock.core.PartitionGuard;
import io.github.distlock.core.PartitionHash;
import io.github.distlock.core.Partitions;

/**
 * Runs a {@code @PartitionOwner} method only on the owner of its key's partition: it
 * evaluates the key, hashes it to a partition, and runs the method inside
 * {@link Partitions#enter(int)}, so that a revocation of the partition waits for the call
 * to end. A call on an instance that does not own the partition, or is no member of the
 * group (before the application started, after it stopped, while it refuses traffic), is
 * skipped or fails with a {@link NotPartitionOwnerException}, as the operation says; the
 * method does not run.
 */
public class PartitionOwnerInterceptor implements MethodInterceptor, BeanFactoryAware {

	private final PartitionOwnerOperationSource source;

	private final Function<String, Optional<Partitions>> membership;

	private @Nullable BeanFactory beanFactory;

	/**
	 * Create an interceptor.
	 * @param source where the operations come from
	 * @param membership this instance's membership of a group, if it is a member now
	 */
	public PartitionOwnerInterceptor(PartitionOwnerOperationSource source,
			Function<String, Optional<Partitions>> membership) {
		this.source = source;
		this.membership = membership;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopProxyUtils.ultimateTargetClass(target)
				: invocation.getMethod().getDeclaringClass();
		PartitionOwnerOperation operation = this.source.getOperation(invocation.getMethod(), targetClass);
		if (operation == null) {
			return invocation.proceed();
		}
		String key = key(operation, invocation, target, targetClass);
		int partition = PartitionHash.partitionOf(key, operation.partitions());
		Optional<Partitions> partitions = this.membership.apply(operation.group());
		if (partitions.isEmpty()) {
			return notOwner(operation, invocation, partition, key, "is no member of the group now");
		}
		PartitionGuard guard;
		try {
			guard = partitions.get().enter(partition);
		}
		catch (IllegalStateException ex) {
			return notOwner(operation, invocation, partition, key, "does not own the partition (owner: "
					+ partitions.get().ownerOf(partition).orElse("none known") + ")");
		}
		try (guard) {
			return invocation.proceed();
		}
	}

	private String key(PartitionOwnerOperation operation, MethodInvocation invocation, @Nullable Object target,
			Class<?> targetClass) {
		Object value;
		try {
			value = operation.key()
				.getValue(this.source.expressionEvaluator()
					.createContext(operation.method(), invocation.getArguments(), target, targetClass,
							this.beanFactory));
		}
		catch (EvaluationException ex) {
			throw new LockConfigurationException(operation.description() + ": key '"
					+ operation.key().getExpressionString() + "' could not be evaluated: " + ex.getMessage(), ex);
		}
		if (value == null) {
			throw new IllegalArgumentException(
					operation.description() + ": key '" + operation.key().getExpressionString()
							+ "' gave null, which has no partition; the method " + "did not run");
		}
		return String.valueOf(value);
	}

	private @Nullable Object notOwner(PartitionOwnerOperation operation, MethodInvocation invocation, int partition,
			String key, String why) {
		if (operation.onNotOwner() == OnNotOwner.SKIP) {
			return LockedReturnType.SYNCHRONOUS.emptyValue(invocation.getMethod());
		}
		throw new NotPartitionOwnerException(
				operation.description() + ": this instance " + why + ": partition " + partition + " of group '"
						+ operation.group() + "', for key '" + key + "'; the method did not run",
				operation.group(), partition, key);
	}

}
