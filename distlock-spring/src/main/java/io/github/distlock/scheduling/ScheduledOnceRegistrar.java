package io.github.distlock.scheduling;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.util.ReflectionUtils;

import io.github.distlock.annotation.MissedRuns;
import io.github.distlock.core.ScheduledJobs;

/**
 * Finds the beans' {@code @ScheduledOnce} methods (after they were proxied, as Spring's
 * own {@code @Scheduled} processing does) and, once the context is refreshed, makes their
 * jobs known to {@link ScheduledJobs}, with the call of the method as the body of a run
 * outside the schedule ({@link ScheduledJobs#runNow(String)}), and starts the catch-up
 * run of each job whose missed runs are {@linkplain MissedRuns#RUN_ONCE run once}, each
 * on a thread of its own so that startup does not wait for it.
 */
public final class ScheduledOnceRegistrar implements BeanPostProcessor, Ordered, BeanFactoryAware,
		ApplicationContextAware, ApplicationListener<ContextRefreshedEvent> {

	private static final Logger logger = LoggerFactory.getLogger(ScheduledOnceRegistrar.class);

	private final ScheduledOnceOperationSource source = new ScheduledOnceOperationSource();

	private final Supplier<ScheduledJobs> jobs;

	private final List<Found> found = new CopyOnWriteArrayList<>();

	private final AtomicBoolean registered = new AtomicBoolean();

	private @Nullable ApplicationContext context;

	/**
	 * Create the registrar.
	 * @param jobs the jobs, asked for once the context is refreshed
	 */
	public ScheduledOnceRegistrar(Supplier<ScheduledJobs> jobs) {
		this.jobs = jobs;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.source.setBeanFactory(beanFactory);
	}

	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public int getOrder() {
		// After the proxies are made, so that a catch-up calls the method through them.
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		if (bean instanceof AopInfrastructureBean) {
			return bean;
		}
		Class<?> targetClass = AopUtils.getTargetClass(bean);
		if (!this.source.hasOperations(targetClass)) {
			return bean;
		}
		Map<Method, ScheduledOnceOperation> methods = MethodIntrospector.selectMethods(targetClass,
				(MethodIntrospector.MetadataLookup<ScheduledOnceOperation>) (method) -> this.source.getOperation(method,
						targetClass));
		methods.forEach((method, operation) -> this.found
			.add(new Found(bean, AopUtils.selectInvocableMethod(method, bean.getClass()), operation)));
		return bean;
	}

	@Override
	public void onApplicationEvent(ContextRefreshedEvent event) {
		if (event.getApplicationContext() != this.context || !this.registered.compareAndSet(false, true)) {
			return;
		}
		ScheduledJobs jobs = this.jobs.get();
		for (Found each : this.found) {
			jobs.register(each.operation().job(), () -> runNow(each));
		}
		for (Found each : this.found) {
			// Only a call through the proxy claims its slot.
			if (each.operation().missed() == MissedRuns.RUN_ONCE && AopUtils.isAopProxy(each.bean())) {
				Thread thread = new Thread(() -> catchUp(each), "distlock-catch-up-" + each.operation().job().name());
				thread.setDaemon(true);
				thread.start();
			}
		}
	}

	/**
	 * The body of a manual run: the method called through the proxy, whose other advice
	 * applies, with the exception the method threw.
	 */
	private static @Nullable Object runNow(Found found) throws Exception {
		return ScheduledOnceInterceptor.runNow(() -> {
			ReflectionUtils.makeAccessible(found.method());
			try {
				return found.method().invoke(found.bean());
			}
			catch (InvocationTargetException ex) {
				if (ex.getCause() instanceof Exception exception) {
					throw exception;
				}
				if (ex.getCause() instanceof Error error) {
					throw error;
				}
				throw ex;
			}
		});
	}

	private void catchUp(Found found) {
		ScheduledOnceInterceptor.catchUp(() -> {
			try {
				ReflectionUtils.makeAccessible(found.method());
				found.method().invoke(found.bean());
			}
			catch (Exception ex) {
				logger.warn("Catching up on the missed slot of scheduled job '{}' ({}) failed",
						found.operation().job().name(), found.operation().method(), ex);
			}
		});
	}

	private record Found(Object bean, Method method, ScheduledOnceOperation operation) {
	}

}
