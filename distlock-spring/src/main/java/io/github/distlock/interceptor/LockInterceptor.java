package io.github.distlock.interceptor;

import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;

import io.github.distlock.core.Locks;

/**
 * Takes the lock of an annotated method around its work: its invocation, or, for a method
 * returning a {@code CompletionStage}, a reactive type or a Kotlin {@code suspend}
 * function, until the asynchronous work ends. The work is done by
 * {@link LockOperationExecutor}.
 */
public class LockInterceptor implements MethodInterceptor, BeanFactoryAware {

	private final OperationSource<LockOperation> source;

	private final LockOperationExecutor executor;

	/**
	 * Create an interceptor.
	 * @param source where the operations come from
	 * @param locks the lock API, asked for on the first locked call
	 */
	public LockInterceptor(OperationSource<LockOperation> source, Supplier<Locks> locks) {
		this.source = source;
		// One expression evaluator: the one that parsed the operations, if there is one.
		LockExpressionEvaluator evaluator = (source instanceof AnnotationLockOperationSource annotations)
				? annotations.expressionEvaluator() : new LockExpressionEvaluator();
		this.executor = new LockOperationExecutor(locks, evaluator);
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.executor.setBeanFactory(beanFactory);
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopProxyUtils.ultimateTargetClass(target)
				: invocation.getMethod().getDeclaringClass();
		LockOperation operation = this.source.getOperation(invocation.getMethod(), targetClass);
		if (operation == null) {
			return invocation.proceed();
		}
		return this.executor.execute(operation, invocation, targetClass);
	}

}
