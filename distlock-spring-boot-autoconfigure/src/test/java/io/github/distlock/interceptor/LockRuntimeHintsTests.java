package io.github.distlock.interceptor;

import java.lang.reflect.Method;

import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;
import org.springframework.util.ReflectionUtils;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.LeaderOnly;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.annotation.WriteLock;
import io.github.distlock.core.LockTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring AOT processing of a context with locked beans registers the runtime hints
 * distlock needs: fallback methods (invoked reflectively), the classes whose methods are
 * read for lock annotations, the annotations' attributes, the expression root object and
 * the classes ZooKeeper creates by name. Checked with {@link RuntimeHintsPredicates} on
 * the hints of a real AOT run, which finds the registrars through
 * {@code META-INF/spring/aot.factories}.
 */
class LockRuntimeHintsTests {

	@Test
	void fallbackMethodsAreRegisteredForInvocation() {
		RuntimeHints hints = processAheadOfTime(Reports.class, Unlocked.class);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method(Reports.class, "busy")))
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(method(Reports.class, "busyWithException", LockTimeoutException.class))).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(method(Reports.class, "build")))
			.as("locked method itself is called through the proxy, not by reflection")
			.rejects(hints);
	}

	@Test
	void lockedBeanClassesAndTheirInterfacesAreRegistered() {
		RuntimeHints hints = processAheadOfTime(Reports.class, Catalog.class, Unlocked.class);
		assertThat(RuntimeHintsPredicates.reflection().onType(Reports.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Catalog.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(PriceReader.class)).accepts(hints);
	}

	@Test
	void leaderOnlyBeanClassesAreRegisteredWhetherTheMethodOrTheClassIsAnnotated() {
		RuntimeHints hints = processAheadOfTime(Auditor.class, Nightly.class);
		assertThat(RuntimeHintsPredicates.reflection().onType(Auditor.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Nightly.class)).accepts(hints);
	}

	@Test
	void annotationAttributesExpressionRootAndZookeeperClassesAreRegistered() {
		RuntimeHints hints = processAheadOfTime(Unlocked.class);
		for (Class<?> annotation : new Class<?>[] { DistributedLock.class, ReadLock.class, WriteLock.class,
				Semaphore.class, LeaderOnly.class }) {
			assertThat(RuntimeHintsPredicates.reflection()
				.onType(annotation)
				.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
		}
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(LockExpressionRootObject.class)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(TypeReference.of("org.apache.zookeeper.ClientCnxnSocketNetty"))
			.withMemberCategory(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onType(TypeReference.of("org.apache.zookeeper.server.NIOServerCnxnFactory"))
			.withMemberCategory(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS)).accepts(hints);
	}

	private static RuntimeHints processAheadOfTime(Class<?>... beanClasses) {
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			for (Class<?> beanClass : beanClasses) {
				context.registerBean(beanClass);
			}
			DefaultGenerationContext generationContext = new DefaultGenerationContext(
					new ClassNameGenerator(ClassName.get("com.example", "AotTest")), new InMemoryGeneratedFiles());
			new ApplicationContextAotGenerator().processAheadOfTime(context, generationContext);
			return generationContext.getRuntimeHints();
		}
	}

	private static Method method(Class<?> type, String name, Class<?>... parameterTypes) {
		Method method = ReflectionUtils.findMethod(type, name, parameterTypes);
		assertThat(method).as("%s.%s", type.getSimpleName(), name).isNotNull();
		return method;
	}

	public static class Reports {

		@DistributedLock(value = "reports", fallback = "busy")
		public String build() {
			return "report";
		}

		@Semaphore(value = "exports", permits = 2, fallback = "busyWithException")
		public String export() {
			return "export";
		}

		String busy() {
			return "busy";
		}

		private String busyWithException(LockTimeoutException ex) {
			return "busy";
		}

	}

	public interface PriceReader {

		@ReadLock("prices/#{#p0}")
		long price(String sku);

	}

	public static class Catalog implements PriceReader {

		@Override
		public long price(String sku) {
			return 1;
		}

	}

	public static class Auditor {

		@LeaderOnly("audit")
		public void audit() {
		}

	}

	@LeaderOnly("nightly")
	public static class Nightly {

		public void run() {
		}

	}

	public static class Unlocked {

		public void run() {
		}

	}

}
