package io.github.distlock.interceptor;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Lock paths that can nest, refused when parsed (distlock-spring's
 * {@code LockPathNestingTests}), fail the startup of a Spring Boot application with
 * Boot's failure report: what is wrong under Description, the fix under Action.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockPathNestingStartupReportTests {

	@Test
	void startupFailsWithSpringBootsReport(CapturedOutput output) {
		SpringApplication application = new SpringApplication(NestingApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run("--distlock.zookeeper.connect-string=127.0.0.1:1"));
		String all = output.getAll();
		String report = all.substring(all.indexOf("APPLICATION FAILED TO START")).replaceAll("\\s+", " ");
		assertThat(report).contains("has its lock nodes inside the path of @DistributedLock(\"orders\")")
			.contains("take for one (a Curator client could wait on it for as long as the inner lock is in use, or "
					+ "count it as a lease). Action: Give the inner lock a path outside 'orders'");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(DistlockAutoConfiguration.class)
	static class NestingApplication {

		@Bean
		Orders orders() {
			return new Orders();
		}

	}

	static class Orders {

		@DistributedLock("orders")
		public void all() {
		}

		@DistributedLock("orders/#{#id}")
		public void one(long id) {
		}

	}

}
