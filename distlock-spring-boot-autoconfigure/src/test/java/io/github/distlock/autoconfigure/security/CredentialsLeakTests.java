package io.github.distlock.autoconfigure.security;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContext;
import org.springframework.util.ClassUtils;

import io.github.distlock.autoconfigure.DistlockProperties;
import io.github.distlock.autoconfigure.ZookeeperConnectionDetails;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.Locks;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * No configured secret reaches the logs (ZooKeeper, Curator and distlock at DEBUG, client
 * and server), the lock nodes' data, exception messages, {@code toString}s, or what
 * distlock's health indicator and endpoint report, when those are present.
 */
@ExtendWith(OutputCaptureExtension.class)
class CredentialsLeakTests {

	private static final String PASSWORD = "Pa55-leak-canary-7f3e";

	private static final List<String> LOGGERS = List.of("org.apache.zookeeper", "org.apache.curator",
			"io.github.distlock");

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final LoggingSystem loggingSystem = LoggingSystem.get(getClass().getClassLoader());

	private final ApplicationContextRunner contextRunner = DistlockContextRunners
		.applicationContextRunner(zookeeper, distlockAutoConfigurations())
		// Create distlock's endpoint and show health details, if actuator is there
		.withPropertyValues("management.endpoints.web.exposure.include=*",
				"management.endpoint.health.show-details=always");

	@BeforeEach
	void debugLogging() {
		LOGGERS.forEach((logger) -> this.loggingSystem.setLogLevel(logger, LogLevel.DEBUG));
	}

	@AfterEach
	void resetLogging() {
		LOGGERS.forEach((logger) -> this.loggingSystem.setLogLevel(logger, null));
	}

	@Test
	void passwordAppearsNowhere(CapturedOutput output) {
		List<String> observed = new ArrayList<>();
		this.contextRunner.withPropertyValues(ZookeeperAuthenticationTests.credentials("app", PASSWORD, "leak"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CuratorFramework client = context.getBean(CuratorFramework.class);
				Locks locks = context.getBean(Locks.class);
				try (LockHandle handle = locks.mutex("orders/1").acquire(Duration.ofSeconds(10))) {
					String lockDirectory = "/mutex/orders/1";
					String node = lockDirectory + "/" + client.getChildren().forPath(lockDirectory).get(0);
					String data = new String(client.getData().forPath(node), StandardCharsets.UTF_8);
					assertThat(data).startsWith("{\"app\":").contains("\"host\":", "\"pid\":", "\"thread\":");
					observed.add(data);
					observed.add(handle.toString());
					observed.add(locks.heldLocks().toString());
					List<String> reports = reports(context);
					if (ClassUtils.isPresent("org.springframework.boot.actuate.endpoint.annotation.ReadOperation",
							null)) {
						// Health details and the endpoint's answers about the held lock
						assertThat(reports).anyMatch((report) -> report.contains(".health = "))
							.anyMatch((report) -> report.contains("orders/1"));
					}
					observed.addAll(reports);
				}
				observed.add(context.getBean(DistlockProperties.class).toString());
				observed.add(context.getBean(DistlockProperties.class).getZookeeper().getAuth().toString());
				ZookeeperConnectionDetails details = context.getBean(ZookeeperConnectionDetails.class);
				assertThat(details.getAuthentication()).isNotNull();
				observed.add(details.getAuthentication().toString());
				for (String bean : context.getBeanDefinitionNames()) {
					observed.add(String.valueOf(context.getBean(bean)));
				}
			});
		// The same user with a wrong password: errors and their messages
		this.contextRunner
			.withPropertyValues(ZookeeperAuthenticationTests.credentials("app", PASSWORD + "-wrong", "leak"))
			.run((context) -> {
				Throwable failure = catchThrowable(
						() -> context.getBean(Locks.class).mutex("orders/1").acquire(Duration.ofSeconds(5)));
				assertThat(failure).isInstanceOf(LockAcquisitionException.class);
				for (Throwable ex = failure; ex != null; ex = ex.getCause()) {
					observed.add(ex.toString());
				}
			});
		assertThat(output.getAll()).contains("DEBUG").contains("org.apache.zookeeper");
		observed.add(output.getAll());
		for (String secretForm : secretForms(PASSWORD)) {
			assertThat(observed).noneMatch((text) -> text.contains(secretForm));
		}
	}

	/**
	 * The password as text, and as ZooKeeper or Curator would print the bytes of
	 * {@code user:password} (hexadecimal, {@code Arrays.toString}).
	 */
	private static List<String> secretForms(String password) {
		byte[] auth = ("app:" + password).getBytes(StandardCharsets.UTF_8);
		byte[] secret = password.getBytes(StandardCharsets.UTF_8);
		String arrayForm = Arrays.toString(secret);
		return List.of(password, HexFormat.of().formatHex(secret), HexFormat.of().withUpperCase().formatHex(secret),
				arrayForm.substring(1, arrayForm.length() - 1), HexFormat.of().formatHex(auth));
	}

	/**
	 * What distlock's own beans report through a health indicator ({@code health()}) or
	 * an actuator endpoint ({@code @ReadOperation} methods without parameters), for
	 * whichever of them the auto-configurations on the classpath created.
	 */
	private static List<String> reports(ApplicationContext context) throws Exception {
		List<String> reports = new ArrayList<>();
		for (String name : context.getBeanDefinitionNames()) {
			Object bean = context.getBean(name);
			Class<?> type = AopUtils.getTargetClass(bean);
			if (!type.getName().startsWith("io.github.distlock.")) {
				continue;
			}
			for (Method method : type.getMethods()) {
				if (Modifier.isStatic(method.getModifiers())) {
					continue;
				}
				Class<?>[] parameters = method.getParameterTypes();
				if (parameters.length == 0 && (method.getName().equals("health") || isReadOperation(method))) {
					reports.add(name + "." + method.getName() + " = " + method.invoke(bean));
				}
				else if (parameters.length == 1 && isReadOperation(method)) {
					// An operation on one lock path: ask about the path the test holds.
					Object argument = (parameters[0] == String[].class) ? new String[] { "orders", "1" }
							: (parameters[0] == String.class) ? "orders/1" : null;
					if (argument != null) {
						reports.add(name + "." + method.getName() + " = " + method.invoke(bean, argument));
					}
				}
			}
		}
		return reports;
	}

	private static boolean isReadOperation(Method method) {
		for (Annotation annotation : method.getAnnotations()) {
			if (annotation.annotationType().getSimpleName().equals("ReadOperation")) {
				return true;
			}
		}
		return false;
	}

	private static Class<?>[] distlockAutoConfigurations() {
		List<Class<?>> configurations = new ArrayList<>();
		for (String name : ImportCandidates.load(AutoConfiguration.class,
				CredentialsLeakTests.class.getClassLoader())) {
			if (name.startsWith("io.github.distlock.") && !name.contains("Embedded")) {
				try {
					configurations.add(Class.forName(name));
				}
				catch (ClassNotFoundException ex) {
					throw new IllegalStateException(ex);
				}
			}
		}
		assertThat(configurations).isNotEmpty();
		return configurations.toArray(Class<?>[]::new);
	}

}
