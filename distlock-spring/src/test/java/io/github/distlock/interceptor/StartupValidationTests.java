package io.github.distlock.interceptor;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import org.springframework.core.NestedExceptionUtils;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.annotation.WriteLock;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A misconfigured annotation stops the application context from starting, with a message
 * naming the method, even when another method of the bean is fine and comes first.
 */
class StartupValidationTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	static Stream<Arguments> misconfigurations() {
		return Stream.of(
				Arguments.of(BadDuration.class, "BadDuration.run()", "waitTime '5 parsecs' is not a wait time"),
				Arguments.of(BadTemplate.class, "BadTemplate.run(long)", "'orders/#{#id' is not a valid template"),
				Arguments.of(MissingFallback.class, "MissingFallback.run(long)", "fallback method 'nowhere' not found"),
				Arguments.of(WrongFallback.class, "WrongFallback.run(long)",
						"'wrongFallback' has the wrong parameters"),
				Arguments.of(FutureReturn.class, "FutureReturn.run()",
						"returns java.util.concurrent.Future, a Future whose end cannot be observed"),
				Arguments.of(NoPermits.class, "NoPermits.run()",
						"permits = 0 (none given), but a semaphore needs at least 1 permit"),
				Arguments.of(NegativePermits.class, "NegativePermits.run()",
						"permits = -2, but a semaphore needs at least 1 permit"),
				Arguments.of(TextPermits.class, "TextPermits.run()", "permitsString 'many' is not a number of permits"),
				Arguments.of(UnresolvablePermits.class, "UnresolvablePermits.run()",
						"permitsString '${missing.permits}' could not be resolved"),
				Arguments.of(ZeroPlaceholderPermits.class, "ZeroPlaceholderPermits.run()",
						"permitsString '${zero.permits:0}' (resolved to '0') gives 0 permits"),
				Arguments.of(BothPermits.class, "BothPermits.run()",
						"both permits = 2 and permitsString = \"3\" are given"),
				Arguments.of(SemaphoreOverCollection.class, "SemaphoreOverCollection.run(List)",
						"part #{#keys} of path template 'pools/#{#keys}' gives a collection"),
				Arguments.of(TwoCollections.class, "TwoCollections.run(List, Set)",
						"parts #{#a} and #{#p1} of path template 'x/#{#a}/#{#p1}' both give collections"),
				Arguments.of(ReadAndWrite.class, "ReadAndWrite.run()",
						"carries 2 lock annotations (@ReadLock, @WriteLock)"),
				Arguments.of(EmptyWritePath.class, "EmptyWritePath.run()",
						"no lock path; give one such as @WriteLock("),
				Arguments.of(ReadBadWait.class, "ReadBadWait.run()", "waitTime 'soon' is not a wait time"));
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

	static class NoPermits {

		@Semaphore("x")
		public void run() {
		}

	}

	static class NegativePermits {

		@Semaphore(value = "x", permits = -2)
		public void run() {
		}

	}

	static class TextPermits {

		@Semaphore(value = "x", permitsString = "many")
		public void run() {
		}

	}

	static class UnresolvablePermits {

		@Semaphore(value = "x", permitsString = "${missing.permits}")
		public void run() {
		}

	}

	static class ZeroPlaceholderPermits {

		@Semaphore(value = "x", permitsString = "${zero.permits:0}")
		public void run() {
		}

	}

	static class BothPermits {

		@Semaphore(value = "x", permits = 2, permitsString = "3")
		public void run() {
		}

	}

	static class SemaphoreOverCollection {

		@Semaphore(value = "pools/#{#keys}", permits = 2)
		public void run(List<String> keys) {
		}

	}

	static class TwoCollections {

		@DistributedLock("x/#{#a}/#{#p1}")
		public void run(List<String> a, Set<String> b) {
		}

	}

	static class ReadAndWrite {

		@ReadLock("x")
		@WriteLock("x")
		public void run() {
		}

	}

	static class EmptyWritePath {

		@WriteLock(waitTime = "1s")
		public void run() {
		}

	}

	static class ReadBadWait {

		@ReadLock(value = "x", waitTime = "soon")
		public void run() {
		}

	}

	static class FutureReturn {

		@DistributedLock("x")
		public Future<String> run() {
			return CompletableFuture.completedFuture("");
		}

	}

}
