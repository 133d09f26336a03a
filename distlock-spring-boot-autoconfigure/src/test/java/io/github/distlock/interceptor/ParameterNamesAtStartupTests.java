package io.github.distlock.interceptor;

import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A template that names parameters ({@code #order.id}) on a method compiled without
 * {@code -parameters} fails when the bean is proxied, naming the method and the fix, not
 * on its first call. The beans are compiled here, with javac's debug information but
 * without {@code -parameters}, so their methods really lack parameter names.
 */
@ExtendWith(OutputCaptureExtension.class)
class ParameterNamesAtStartupTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	private static final String SOURCE = """
			package compiled;

			import io.github.distlock.annotation.DistributedLock;

			public class Shipping {

				public record Order(long id) {
				}

				@DistributedLock("orders/#{#order.id}")
				public void ship(Order order) {
				}

			}
			""";

	private static final String POSITIONAL_SOURCE = """
			package compiled;

			import io.github.distlock.annotation.DistributedLock;

			public class PositionalShipping {

				public record Order(long id) {
				}

				@DistributedLock(value = "orders/#{#p0.id}/#{#root.method.name}", waitTime = "#{#a1}")
				public long ship(Order order, String wait) {
					return order.id();
				}

			}
			""";

	private static final String WAIT_TIME_SOURCE = """
			package compiled;

			import io.github.distlock.annotation.DistributedLock;

			public class Waiting {

				@DistributedLock(value = "orders", waitTime = "#{#patience}")
				public void ship(String patience) {
				}

			}
			""";

	private static URLClassLoader withoutNames;

	private static URLClassLoader withNames;

	@BeforeAll
	static void compile(@TempDir Path dir) throws IOException {
		withoutNames = compile(dir.resolve("without"), List.of("-g"));
		withNames = compile(dir.resolve("with"), List.of("-g", "-parameters"));
	}

	@AfterAll
	static void close() throws IOException {
		withoutNames.close();
		withNames.close();
	}

	@Test
	void compiledBeansReallyLackParameterNames() throws Exception {
		Method ship = shipping(withoutNames).getMethod("ship", withoutNames.loadClass("compiled.Shipping$Order"));
		assertThat(ship.getParameters()[0].isNamePresent()).isFalse();
		Method named = shipping(withNames).getMethod("ship", withNames.loadClass("compiled.Shipping$Order"));
		assertThat(named.getParameters()[0].isNamePresent()).isTrue();
	}

	@Test
	void templateNamingAParameterFailsWhenParsedNamingTheMethodAndTheFix() throws Exception {
		Class<?> shipping = shipping(withoutNames);
		Method ship = shipping.getMethod("ship", withoutNames.loadClass("compiled.Shipping$Order"));
		assertThatExceptionOfType(LockConfigurationException.class)
			.isThrownBy(() -> new AnnotationLockOperationSource().getOperation(ship, shipping))
			.withMessageContaining("Shipping.ship(Shipping.Order)")
			.withMessageContaining("path template 'orders/#{#order.id}' refers to #order by name")
			.withMessageContaining("compiled without parameter names")
			.withMessageContaining("'javac -parameters'")
			.withMessageContaining("#p0");
	}

	@Test
	void waitTimeNamingAParameterFailsWhenParsed() throws Exception {
		Class<?> waiting = withoutNames.loadClass("compiled.Waiting");
		Method ship = waiting.getMethod("ship", String.class);
		assertThatExceptionOfType(LockConfigurationException.class)
			.isThrownBy(() -> new AnnotationLockOperationSource().getOperation(ship, waiting))
			.withMessageContaining("Waiting.ship(String)")
			.withMessageContaining("waitTime '#{#patience}' refers to #patience by name");
	}

	@Test
	void templateNamingAParameterFailsStartupOfTheContext() {
		Class<?> shipping = shipping(withoutNames);
		assertThatException().isThrownBy(() -> contexts.start((context) -> {
			context.setClassLoader(withoutNames);
			context.registerBean(shipping);
		})).satisfies((ex) -> {
			Throwable cause = ex;
			while (cause != null && !(cause instanceof LockConfigurationException)) {
				cause = cause.getCause();
			}
			assertThat(cause).as("cause chain of %s", ex).isNotNull();
			assertThat(cause.getMessage()).contains("Shipping.ship(Shipping.Order)").contains("-parameters");
		});
	}

	@Test
	void startupReportHasTheWholeExplanationUnderDescriptionAndTheWholeFixUnderAction(CapturedOutput output) {
		Class<?> shipping = shipping(withoutNames);
		SpringApplication application = new SpringApplication(new DefaultResourceLoader(withoutNames),
				ReportApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		application.addInitializers((context) -> ((GenericApplicationContext) context).registerBean(shipping));
		assertThatException().isThrownBy(() -> application.run("--distlock.zookeeper.connect-string=127.0.0.1:1"));
		String all = output.getAll();
		String report = all.substring(all.indexOf("APPLICATION FAILED TO START")).replaceAll("\\s+", " ");
		String description = report.substring(report.indexOf("Description:"), report.indexOf("Action:"));
		String action = report.substring(report.indexOf("Action:"));
		assertThat(description).contains("refers to #order by name")
			.endsWith("so #order would be null on every call. ");
		assertThat(action).startsWith("Action: Compile with 'javac -parameters' (Spring Boot's Maven and Gradle "
				+ "plugins set it; IDE builds need it in their compiler settings too), or refer to parameters by "
				+ "position: #p0 (or #a0) for the first.");
	}

	@Test
	void positionalReferencesNeedNoParameterNames() throws Exception {
		Class<?> shipping = withoutNames.loadClass("compiled.PositionalShipping");
		Method ship = shipping.getMethod("ship", withoutNames.loadClass("compiled.PositionalShipping$Order"),
				String.class);
		assertThat(new AnnotationLockOperationSource().getOperation(ship, shipping)).isNotNull();
	}

	@Test
	void sameTemplateCompiledWithParameterNamesIsAccepted() throws Exception {
		Class<?> shipping = shipping(withNames);
		Method ship = shipping.getMethod("ship", withNames.loadClass("compiled.Shipping$Order"));
		assertThat(new AnnotationLockOperationSource().getOperation(ship, shipping)).isNotNull();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(DistlockAutoConfiguration.class)
	static class ReportApplication {

	}

	private static Class<?> shipping(ClassLoader loader) {
		try {
			return loader.loadClass("compiled.Shipping");
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static URLClassLoader compile(Path dir, List<String> flags) throws IOException {
		Path sources = Files.createDirectories(dir.resolve("src/compiled"));
		Path classes = Files.createDirectories(dir.resolve("classes"));
		List<String> arguments = new ArrayList<>(flags);
		arguments.addAll(List.of("--release", "17", "-proc:none", "-d", classes.toString(), "-classpath",
				Path.of(codeSource(DistributedLock.class)).toString()));
		for (String source : List.of(SOURCE, POSITIONAL_SOURCE, WAIT_TIME_SOURCE)) {
			String name = source.replaceFirst("(?s).*public class (\\w+).*", "$1");
			Path file = sources.resolve(name + ".java");
			Files.writeString(file, source);
			arguments.add(file.toString());
		}
		JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
		ByteArrayOutputStream errors = new ByteArrayOutputStream();
		int result = javac.run(null, errors, errors, arguments.toArray(String[]::new));
		assertThat(result).as("javac %s: %s", arguments, errors).isZero();
		return new URLClassLoader(new URL[] { classes.toUri().toURL() },
				ParameterNamesAtStartupTests.class.getClassLoader());
	}

	private static URI codeSource(Class<?> type) {
		try {
			return type.getProtectionDomain().getCodeSource().getLocation().toURI();
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
