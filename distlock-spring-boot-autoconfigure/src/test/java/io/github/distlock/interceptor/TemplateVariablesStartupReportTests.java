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
 * An expression that refers to a variable the call will not have, refused when parsed
 * (distlock-spring's {@code TemplateVariablesAtStartupTests}), fails the startup of a
 * Spring Boot application with Boot's failure report: what is wrong under Description,
 * the fix under Action.
 */
@ExtendWith(OutputCaptureExtension.class)
class TemplateVariablesStartupReportTests {

	@Test
	void startupFailsWithSpringBootsReport(CapturedOutput output) {
		SpringApplication application = new SpringApplication(TypoApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run("--distlock.zookeeper.connect-string=127.0.0.1:1"));
		String all = output.getAll();
		String report = all.substring(all.indexOf("APPLICATION FAILED TO START")).replaceAll("\\s+", " ");
		assertThat(report).contains("Description: @DistributedLock(\"orders/#{#ordr.id}\") on "
				+ "TemplateVariablesStartupReportTests.Typo.ship(TemplateVariablesStartupReportTests.Order): path "
				+ "template 'orders/#{#ordr.id}' refers to #ordr, which is not a parameter of the method: the "
				+ "method's parameters are #order (or #p0 by position). Action: Refer to a parameter by its name "
				+ "or position, or to #root.method, #root.args or #root.target");
	}

	record Order(long id) {
	}

	static class Typo {

		@DistributedLock("orders/#{#ordr.id}")
		public void ship(Order order) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(DistlockAutoConfiguration.class)
	static class TypoApplication {

		@Bean
		Typo typo() {
			return new Typo();
		}

	}

}
