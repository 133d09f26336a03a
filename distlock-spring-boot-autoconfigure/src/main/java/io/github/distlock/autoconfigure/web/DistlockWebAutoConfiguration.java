package io.github.distlock.autoconfigure.web;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.ProblemDetail;

import io.github.distlock.autoconfigure.DistlockProperties;
import io.github.distlock.autoconfigure.PropertyChecks;
import io.github.distlock.web.LockProblemDetailsExceptionHandler;

/**
 * {@link AutoConfiguration Auto-configuration} of distlock's answer to lock failures in
 * web applications: a {@code 503} with a problem detail and {@code Retry-After}, for
 * Spring MVC and, when it is there, WebFlux. Off with
 * {@code distlock.web.problem-details.enabled=false}.
 */
@AutoConfiguration
@ConditionalOnClass(ProblemDetail.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "distlock.web.problem-details.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistlockProperties.class)
public final class DistlockWebAutoConfiguration {

	private static LockProblemDetailsExceptionHandler handler(DistlockProperties properties) {
		return new LockProblemDetailsExceptionHandler(PropertyChecks.positive(
				"distlock.web.problem-details.retry-after", properties.getWeb().getProblemDetails().getRetryAfter()));
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.SERVLET)
	@ConditionalOnClass(name = "org.springframework.web.servlet.DispatcherServlet")
	static class ServletConfiguration {

		@Bean
		@ConditionalOnMissingBean
		LockProblemDetailsExceptionHandler distlockProblemDetailsExceptionHandler(DistlockProperties properties) {
			return handler(properties);
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = Type.REACTIVE)
	@ConditionalOnClass(name = "org.springframework.web.reactive.DispatcherHandler")
	static class ReactiveConfiguration {

		@Bean
		@ConditionalOnMissingBean
		LockProblemDetailsExceptionHandler distlockProblemDetailsExceptionHandler(DistlockProperties properties) {
			return handler(properties);
		}

	}

}
