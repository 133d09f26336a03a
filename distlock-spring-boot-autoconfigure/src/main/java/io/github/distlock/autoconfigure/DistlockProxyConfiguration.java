package io.github.distlock.autoconfigure;

import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.Ordered;
import org.springframework.core.type.AnnotationMetadata;

import io.github.distlock.core.Locks;
import io.github.distlock.interceptor.AnnotationLockOperationSource;
import io.github.distlock.interceptor.LockInterceptor;
import io.github.distlock.interceptor.LockOperationSource;
import io.github.distlock.interceptor.OperationSourceAdvisor;

/**
 * Infrastructure beans that put a lock around annotated methods: the operation source,
 * the interceptor and the advisor, plus an auto-proxy creator if the context has none (as
 * {@code @EnableCaching} does; no AspectJ weaver needed). The {@link Locks} bean and the
 * {@link DistlockProperties} are looked up lazily, so that nothing is created early while
 * bean post-processors are being set up.
 */
@Configuration(proxyBeanMethods = false)
@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
@Import({ DistlockProxyConfiguration.AutoProxyCreatorRegistrar.class, DistlockTransactionConfiguration.class })
class DistlockProxyConfiguration {

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LockOperationSource lockOperationSource() {
		return new AnnotationLockOperationSource();
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static LockInterceptor lockInterceptor(LockOperationSource lockOperationSource, ObjectProvider<Locks> locks) {
		return new LockInterceptor(lockOperationSource, locks::getObject);
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean(name = "lockOperationSourceAdvisor")
	static OperationSourceAdvisor lockOperationSourceAdvisor(LockOperationSource lockOperationSource,
			LockInterceptor lockInterceptor, ObjectProvider<DistlockProperties> properties) {
		OperationSourceAdvisor advisor = new OperationSourceAdvisor(lockOperationSource, lockInterceptor);
		advisor.setOrderSupplier(() -> {
			DistlockProperties distlock = properties.getIfAvailable();
			return (distlock != null) ? distlock.getLock().getOrder() : Ordered.LOWEST_PRECEDENCE - 1;
		});
		return advisor;
	}

	/**
	 * Registers Spring's infrastructure auto-proxy creator unless a stronger one (such as
	 * the one of {@code AopAutoConfiguration}) is registered already.
	 */
	static class AutoProxyCreatorRegistrar implements ImportBeanDefinitionRegistrar {

		@Override
		public void registerBeanDefinitions(AnnotationMetadata importingClassMetadata,
				BeanDefinitionRegistry registry) {
			AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
		}

	}

}
