package io.github.distlock.interceptor;

import java.util.function.IntSupplier;
import java.util.function.Supplier;

import org.aopalliance.aop.Advice;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractBeanFactoryPointcutAdvisor;
import org.springframework.beans.factory.BeanFactory;

import io.github.distlock.core.Locks;

/**
 * Advisor running every {@link io.github.distlock.annotation.LeaderOnly @LeaderOnly}
 * method under its group's tenure, through a {@link LockInterceptor} of its own (so the
 * executors of locked calls, and their return types, are shared). Ordered just outside
 * the lock advisor: on a method that also carries a lock annotation, leadership is
 * checked before the lock is taken.
 */
public class LeaderOnlyAdvisor extends AbstractBeanFactoryPointcutAdvisor {

	private final LeaderOnlyOperationSource source;

	private final LockOperationSourcePointcut pointcut;

	private final LockInterceptor interceptor;

	private @Nullable IntSupplier orderSupplier;

	/**
	 * Create the advisor.
	 * @param source where the operations come from
	 * @param locks the lock API, asked for on the first call
	 */
	public LeaderOnlyAdvisor(LeaderOnlyOperationSource source, Supplier<Locks> locks) {
		this.source = source;
		this.pointcut = new LockOperationSourcePointcut(source);
		this.interceptor = new LockInterceptor(source, locks);
	}

	/** The operation source, which knows the groups the annotated methods name. */
	public LeaderOnlyOperationSource source() {
		return this.source;
	}

	/**
	 * Supply the order when it is first asked for.
	 * @param orderSupplier the supplier of the order
	 */
	public void setOrderSupplier(IntSupplier orderSupplier) {
		this.orderSupplier = orderSupplier;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		super.setBeanFactory(beanFactory);
		this.interceptor.setBeanFactory(beanFactory);
	}

	@Override
	public Advice getAdvice() {
		return this.interceptor;
	}

	@Override
	public int getOrder() {
		return (this.orderSupplier != null) ? this.orderSupplier.getAsInt() : super.getOrder();
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

}
