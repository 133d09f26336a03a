package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import org.junit.jupiter.api.Test;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.core.LockConfigurationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An expression that refers to a variable the call will not have (a misspelt parameter
 * name, a position past the last parameter) fails when the annotation is parsed, at
 * startup, naming the method, the annotation, the expression and the method's real
 * parameters, instead of failing every call. The names an expression refers to are read
 * from its parsed SpEL tree.
 */
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

}
