package io.github.distlock.interceptor;

import java.util.function.IntSupplier;

import org.aopalliance.aop.Advice;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractBeanFactoryPointcutAdvisor;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;

/**
 * Advisor putting an interceptor around every method for which an {@link OperationSource}
 * has an operation: the one advisor of the lock annotations ({@link LockInterceptor} on
 * an {@link AnnotationLockOperationSource}), of {@code @LeaderOnly}
 * ({@link LockInterceptor} on a {@link LeaderOnlyOperationSource}) and of
 * {@code @ScheduledOnce}. Its pointcut asks the source about the whole class when a bean
 * is proxied, which validates every annotated method at startup.
 * <p>
 * Its order may be supplied lazily, so that reading it does not create configuration
 * beans while post-processors are still being set up. The source and the interceptor
 * receive the bean factory if they want it and are not beans themselves.
 */
public class OperationSourceAdvisor extends AbstractBeanFactoryPointcutAdvisor {

	private final OperationSource<?> source;

	private final OperationSourcePointcut pointcut;

	private @Nullable IntSupplier orderSupplier;

	/**
	 * Create an advisor.
	 * @param source where the operations come from
	 * @param advice the interceptor that runs them
	 */
	public OperationSourceAdvisor(OperationSource<?> source, Advice advice) {
		this.source = source;
		this.pointcut = new OperationSourcePointcut(source);
		setAdvice(advice);
	}

	/** The operation source the pointcut asks. */
	public OperationSource<?> getOperationSource() {
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
		// Setting it twice on a bean that got it already is harmless: the same factory.
		if (this.source instanceof BeanFactoryAware aware) {
			aware.setBeanFactory(beanFactory);
		}
		if (getAdvice() instanceof BeanFactoryAware aware) {
			aware.setBeanFactory(beanFactory);
		}
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
