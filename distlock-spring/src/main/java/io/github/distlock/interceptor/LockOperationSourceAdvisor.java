package io.github.distlock.interceptor;

import java.util.function.IntSupplier;

import org.jspecify.annotations.Nullable;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractBeanFactoryPointcutAdvisor;

/**
 * Advisor putting the {@link LockInterceptor} around every method that has a lock
 * operation. Its order may be supplied lazily, so that reading it does not create
 * configuration beans while post-processors are still being set up.
 */
public class LockOperationSourceAdvisor extends AbstractBeanFactoryPointcutAdvisor {

	private final LockOperationSourcePointcut pointcut;

	private @Nullable IntSupplier orderSupplier;

	public LockOperationSourceAdvisor(LockOperationSource source) {
		this.pointcut = new LockOperationSourcePointcut(source);
	}

	/**
	 * Supply the order when it is first asked for.
	 * @param orderSupplier the supplier of the order
	 */
	public void setOrderSupplier(IntSupplier orderSupplier) {
		this.orderSupplier = orderSupplier;
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
