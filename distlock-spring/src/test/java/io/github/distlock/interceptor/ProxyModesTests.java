package io.github.distlock.interceptor;

import java.time.Duration;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lock is taken on JDK interface proxies and CGLIB subclass proxies alike, whether
 * the annotation sits on the class method or on the interface method.
 */
class ProxyModesTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	private static Locks locks;

	@BeforeAll
	static void start() throws Exception {
		locks = contexts.start().getBean(Locks.class);
	}

	@Test
	void jdkProxyLocksAnnotatedClassMethod() {
		assertLocked(proxy(new AnnotatedOnClass(), false), false);
	}

	@Test
	void jdkProxyLocksAnnotatedInterfaceMethod() {
		assertLocked(proxy(new AnnotatedOnInterface(), false), false);
	}

	@Test
	void cglibProxyLocksAnnotatedClassMethod() {
		assertLocked(proxy(new AnnotatedOnClass(), true), true);
	}

	@Test
	void cglibProxyLocksAnnotatedInterfaceMethod() {
		assertLocked(proxy(new AnnotatedOnInterface(), true), true);
	}

	@ParameterizedTest(name = "proxyTargetClass={0}")
	@ValueSource(booleans = { false, true })
	void applicationContextProxiesBothAnnotationPlacements(boolean proxyTargetClass) {
		AnnotationConfigApplicationContext context = contexts.start((ctx) -> {
			ctx.registerBean("onClass", AnnotatedOnClass.class);
			ctx.registerBean("onInterface", AnnotatedOnInterface.class);
			if (proxyTargetClass) {
				AopConfigUtils.registerAutoProxyCreatorIfNecessary((BeanDefinitionRegistry) ctx.getBeanFactory());
				AopConfigUtils.forceAutoProxyCreatorToUseClassProxying((BeanDefinitionRegistry) ctx.getBeanFactory());
			}
		});
		Locks contextLocks = context.getBean(Locks.class);
		assertLocked(context.getBean("onClass", Job.class), proxyTargetClass, contextLocks);
		assertLocked(context.getBean("onInterface", Job.class), proxyTargetClass, contextLocks);
	}

	private Job proxy(Job target, boolean proxyTargetClass) {
		AnnotationLockOperationSource source = new AnnotationLockOperationSource();
		OperationSourceAdvisor advisor = new OperationSourceAdvisor(source, new LockInterceptor(source, () -> locks));
		ProxyFactory factory = new ProxyFactory(target);
		factory.setProxyTargetClass(proxyTargetClass);
		if (!proxyTargetClass) {
			factory.setInterfaces(Job.class);
		}
		factory.addAdvisor(advisor);
		return (Job) factory.getProxy();
	}

	private void assertLocked(Job job, boolean cglib) {
		assertLocked(job, cglib, locks);
	}

	private void assertLocked(Job job, boolean cglib, Locks locks) {
		assertThat(AopUtils.isCglibProxy(job)).isEqualTo(cglib);
		assertThat(AopUtils.isJdkDynamicProxy(job)).isEqualTo(!cglib);
		assertThat(job.run(locks, "job-" + cglib)).isTrue();
		// Outside the call the lock is free again.
		assertThat(locks.mutex("jobs/job-" + cglib).tryAcquire(Duration.ZERO))
			.hasValueSatisfying((handle) -> handle.close());
	}

	interface Job {

		/** Reports whether the lock of the given job is held while running. */
		boolean run(Locks locks, String name);

	}

	interface LockedJob extends Job {

		@Override
		@DistributedLock("jobs/#{#p1}")
		boolean run(Locks locks, String name);

	}

	static class AnnotatedOnClass implements Job {

		@Override
		@DistributedLock("jobs/#{#name}")
		public boolean run(Locks locks, String name) {
			return locks.mutex("jobs/" + name).isHeldByCurrentThread();
		}

	}

	static class AnnotatedOnInterface implements LockedJob {

		@Override
		public boolean run(Locks locks, String name) {
			return locks.mutex("jobs/" + name).isHeldByCurrentThread();
		}

	}

}
