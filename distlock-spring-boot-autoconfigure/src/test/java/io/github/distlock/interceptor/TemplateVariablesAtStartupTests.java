package io.github.distlock.interceptor;

import java.lang.reflect.Method;

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
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.LockConfigurationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An expression that refers to a variable the call will not have (a misspelt parameter
 * name, a position past the last parameter) fails when the annotation is parsed, at
 * startup, naming the method, the annotation, the expression and the method's real
 * parameters, instead of failing every call. The names an expression refers to are read
 * from its parsed SpEL tree.
 */
@ExtendWith(OutputCaptureExtension.class)
class TemplateVariablesAtStartupTests {

	private final AnnotationLockOperationSource source = new AnnotationLockOperationSource();

	@Test
	void misspeltParameterInAPathTemplateFailsNamingTheMethodTheTemplateAndTheParameters() throws Exception {
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> parse("ship", Order.class))
			.withMessageStartingWith("@DistributedLock(\"orders/#{#ordr.id}\") on "
					+ "TemplateVariablesAtStartupTests.Shipping.ship(TemplateVariablesAtStartupTests.Order): ")
			.withMessageContaining("path template 'orders/#{#ordr.id}' refers to #ordr, which is not a parameter of "
					+ "the method: the method's parameters are #order (or #p0 by position)");
	}

	@Test
	void everyUnknownNameIsListed() throws Exception {
		assertThatExceptionOfType(LockConfigurationException.class)
			.isThrownBy(() -> parse("transfer", String.class, String.class))
			.withMessageContaining("refers to #form, #too, which are not parameters of the method: the method's "
					+ "parameters are #from, #to (or #p0 to #p1 by position)");
	}

	@Test
	void positionPastTheLastParameterFails() throws Exception {
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> parse("past", long.class))
			.withMessageContaining("path template 'orders/#{#p1}' refers to #p1, which is not a parameter");
	}

	@Test
	void methodWithoutParametersSaysSo() throws Exception {
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> parse("none"))
			.withMessageContaining(
					"refers to #id, which is not a parameter of the method: the method has no " + "parameters");
	}

	@Test
	void waitTimeAndHoldAtLeastExpressionsAreCheckedToo() throws Exception {
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> parse("waiting", String.class))
			.withMessageContaining("waitTime '#{#patiense}' refers to #patiense");
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> parse("holding", String.class))
			.withMessageContaining("holdAtLeast '#{#hold}' refers to #hold");
	}

	@Test
	void everyDocumentedVariableIsAccepted() throws Exception {
		assertThat(parse("documented", Order.class, String.class)).isNotNull();
		assertThat(parse("reading", String.class)).isNotNull();
		assertThat(parse("leasing", String.class)).isNotNull();
	}

	@Test
	void startupFailsWithSpringBootsReport(CapturedOutput output) {
		SpringApplication application = new SpringApplication(TypoApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run("--distlock.zookeeper.connect-string=127.0.0.1:1"));
		String all = output.getAll();
		String report = all.substring(all.indexOf("APPLICATION FAILED TO START")).replaceAll("\\s+", " ");
		assertThat(report).contains("Description: @DistributedLock(\"orders/#{#ordr.id}\") on "
				+ "TemplateVariablesAtStartupTests.Typo.ship(TemplateVariablesAtStartupTests.Order): path template "
				+ "'orders/#{#ordr.id}' refers to #ordr, which is not a parameter of the method: the method's "
				+ "parameters are #order (or #p0 by position). Action: Refer to a parameter by its name or "
				+ "position, or to #root.method, #root.args or #root.target");
	}

	private LockOperation parse(String name, Class<?>... parameterTypes) throws NoSuchMethodException {
		Method method = Shipping.class.getMethod(name, parameterTypes);
		return this.source.getOperation(method, Shipping.class);
	}

	record Order(long id) {
	}

	static class Shipping {

		@DistributedLock("orders/#{#ordr.id}")
		public void ship(Order order) {
		}

		@DistributedLock("accounts/#{#form}/#{#too}")
		public void transfer(String from, String to) {
		}

		@DistributedLock("orders/#{#p1}")
		public void past(long id) {
		}

		@DistributedLock("orders/#{#id}")
		public void none() {
		}

		@DistributedLock(value = "orders", waitTime = "#{#patiense}")
		public void waiting(String patience) {
		}

		@DistributedLock(value = "orders", holdAtLeast = "#{#hold}")
		public void holding(String held) {
		}

		@DistributedLock(
				value = "orders/#{#order.id}/#{#p0.id}/#{#a1}/#{#root.method.name}/#{#root.args[1]}"
						+ "/#{#root.targetClass.simpleName}/#{#note.?[#this == 'x'].length()}",
				waitTime = "#{#p1.length()}ms", holdAtLeast = "#{#a1.length()}ms")
		public void documented(Order order, String note) {
		}

		@ReadLock("catalog/#{#sku}")
		public String reading(String sku) {
			return sku;
		}

		@Semaphore(value = "reports/#{#root.method.name}/#{#kind}", permits = 2)
		public void leasing(String kind) {
		}

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
