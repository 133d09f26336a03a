package io.github.distlock.interceptor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.aop.Advisor;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.autoconfigure.DistlockProperties;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The proxy configuration's beans: order, replaceability, and no early creation of the
 * lock API or the properties.
 */
@ExtendWith(OutputCaptureExtension.class)
class DistlockProxyConfigurationTests {

	private static final String NOT_ELIGIBLE = "is not eligible for getting processed by all BeanPostProcessors";

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	@Test
	void advisorOrderDefaultsToJustOutsideTransactions() {
		AnnotationConfigApplicationContext context = contexts.start();
		assertThat(context.getBean("lockOperationSourceAdvisor", OperationSourceAdvisor.class).getOrder())
			.isEqualTo(Ordered.LOWEST_PRECEDENCE - 1);
	}

	@Test
	void advisorOrderFollowsTheProperty() {
		AnnotationConfigApplicationContext context = contexts.start();
		context.getBean(DistlockProperties.class).getLock().setOrder(42);
		assertThat(context.getBean("lockOperationSourceAdvisor", OperationSourceAdvisor.class).getOrder())
			.isEqualTo(42);
	}

	@Test
	void userOperationSourceReplacesTheDefault() {
		AnnotationConfigApplicationContext context = contexts.start(CustomSource.class);
		assertThat(context.getBeansOfType(LockOperationSource.class)).containsOnlyKeys("customLockOperationSource");
		assertThat(context.getBeansOfType(Advisor.class)).hasSize(1);
	}

	@Test
	void infrastructureDoesNotCreateBeansTooEarly(CapturedOutput output) {
		AnnotationConfigApplicationContext context = contexts.start(WithPostProcessor.class);
		assertThat(context.getBean(Locked.class).run()).isEqualTo("ran");
		assertThat(output).doesNotContain(NOT_ELIGIBLE);
	}

	@Test
	void earlyCreationWarningIsVisibleToTheCheckAbove(CapturedOutput output) {
		contexts.start(EagerPostProcessor.class);
		assertThat(output).contains(NOT_ELIGIBLE);
	}

	static class Locked {

		@DistributedLock("config/locked")
		public String run() {
			return "ran";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class WithPostProcessor {

		@Bean
		static BeanPostProcessor userPostProcessor() {
			return new BeanPostProcessor() {
			};
		}

		@Bean
		Locked locked() {
			return new Locked();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class EagerPostProcessor {

		@Bean
		static BeanPostProcessor eagerPostProcessor(DistlockProperties properties) {
			return new BeanPostProcessor() {
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomSource {

		@Bean
		LockOperationSource customLockOperationSource() {
			return new AnnotationLockOperationSource();
		}

	}

}
