package io.github.distlock.scheduling;

import java.lang.reflect.Method;
import java.time.Clock;
import java.util.function.Supplier;

import org.aopalliance.aop.Advice;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractBeanFactoryPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.EmbeddedValueResolver;

import io.github.distlock.core.ScheduledJobs;

/**
 * Advisor running every
 * {@link io.github.distlock.annotation.ScheduledOnce @ScheduledOnce} method once per slot
 * of its schedule across the cluster, through {@link ScheduledJobs}. Its pointcut
 * validates every such method of a bean when the bean is proxied, so a method that cannot
 * work fails the application at startup.
 */
public class ScheduledOnceAdvisor extends AbstractBeanFactoryPointcutAdvisor {

	private final ScheduledOnceOperationSource source = new ScheduledOnceOperationSource();

	private final ScheduledOnceInterceptor interceptor;

	private final Pointcut pointcut = new StaticMethodMatcherPointcut() {

		{
			setClassFilter(ScheduledOnceAdvisor.this.source::hasOperations);
		}

		@Override
		public boolean matches(Method method, Class<?> targetClass) {
			return ScheduledOnceAdvisor.this.source.getOperation(method, targetClass) != null;
		}

	};

	/**
	 * Create the advisor.
	 * @param jobs the jobs, asked for on the first firing
	 * @param clock the clock of the firings, asked for on each firing
	 */
	public ScheduledOnceAdvisor(Supplier<ScheduledJobs> jobs, Supplier<Clock> clock) {
		this.interceptor = new ScheduledOnceInterceptor(this.source, jobs, clock);
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		super.setBeanFactory(beanFactory);
		if (beanFactory instanceof ConfigurableBeanFactory configurable) {
			this.source.setValueResolver(new EmbeddedValueResolver(configurable));
		}
	}

	@Override
	public Advice getAdvice() {
		return this.interceptor;
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

}
