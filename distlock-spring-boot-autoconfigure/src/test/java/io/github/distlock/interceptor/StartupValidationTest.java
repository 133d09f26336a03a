package io.github.distlock.interceptor;

import java.util.concurrent.CompletableFuture;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import org.springframework.core.NestedExceptionUtils;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.LockConfigurationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A misconfigured annotation stops the application context from starting, with a message
 * naming the method, even when another method of the bean is fine and comes first.
 */
class StartupValidationTest {

	private static TestingServer server;

	private static LockTestContexts contexts;

	@BeforeAll
	static void start() throws Exception {
		server = new TestingServer(true);
		contexts = new LockTestContexts(server.getConnectString());
	}

	@AfterAll
	static void stop() throws Exception {
		contexts.close();
		server.close();
	}

	static Stream<Arguments> misconfigurations() {
		return Stream.of(
				Arguments.of(BadDuration.class, "BadDuration.run()", "waitTime '5 parsecs' is not a wait time"),
				Arguments.of(BadTemplate.class, "BadTemplate.run(long)", "'orders/#{#id' is not a valid template"),
				Arguments.of(MissingFallback.class, "MissingFallback.run(long)", "fallback method 'nowhere' not found"),
				Arguments.of(WrongFallback.class, "WrongFallback.run(long)",
						"'wrongFallback' has the wrong parameters"),
				Arguments.of(AsyncReturn.class, "AsyncReturn.run()", "asynchronous methods are not supported yet"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("misconfigurations")
	void misconfiguredAnnotationFailsStartupNamingTheMethod(Class<?> beanClass, String method, String problem) {
		assertThatException().isThrownBy(() -> contexts.start((context) -> context.registerBean(beanClass)))
			.satisfies((ex) -> {
				Throwable root = NestedExceptionUtils.getMostSpecificCause(ex);
				Throwable configuration = ex;
				while (configuration != null && !(configuration instanceof LockConfigurationException)) {
					configuration = configuration.getCause();
				}
				assertThat(configuration).as("cause chain of %s", ex).isNotNull();
				assertThat(configuration.getMessage()).contains(method).contains(problem);
				assertThat(root.getMessage()).contains(method);
			});
	}

	static class BadDuration {

		@DistributedLock("fine")
		public void fine() {
		}

		@DistributedLock(value = "x", waitTime = "5 parsecs")
		public void run() {
		}

	}

	static class BadTemplate {

		@DistributedLock("orders/#{#id")
		public void run(long id) {
		}

	}

	static class MissingFallback {

		@DistributedLock(value = "x", fallback = "nowhere")
		public void run(long id) {
		}

	}

	static class WrongFallback {

		@DistributedLock(value = "x", fallback = "wrongFallback")
		public void run(long id) {
		}

		void wrongFallback(int id) {
		}

	}

	static class AsyncReturn {

		@DistributedLock("x")
		public CompletableFuture<String> run() {
			return CompletableFuture.completedFuture("");
		}

	}

}
