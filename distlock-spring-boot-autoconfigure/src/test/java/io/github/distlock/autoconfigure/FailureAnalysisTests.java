package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.DefaultResourceLoader;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.autoconfigure.embedded.DistlockEmbeddedZookeeperAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A startup failure caused by distlock reaches the user as Spring Boot's "APPLICATION
 * FAILED TO START" report, with a description and an action, not as a bare stack trace.
 * Each test runs a real {@link SpringApplication} and reads what it printed.
 */
@ExtendWith(OutputCaptureExtension.class)
class FailureAnalysisTests {

	// Nothing listens there: the client connects in the background, so startup does not
	// wait for it.
	private static final String NO_ZOOKEEPER = "--distlock.zookeeper.connect-string=127.0.0.1:1";

	@Test
	void badLockAnnotationIsReportedWithTheMethodAndTheFix(CapturedOutput output) {
		run(application(WithFinalLockedMethod.class), NO_ZOOKEEPER);
		assertThat(report(output)).contains("Description:")
			.contains("@DistributedLock(\"jobs\") on FailureAnalysisTests.FinalLockedMethod.run(): the method is final")
			.contains("Action:")
			.contains("Remove 'final' from the method.");
	}

	@Test
	void missingEmbeddedServerDependencyIsReportedWithTheDependencyToAdd(CapturedOutput output) {
		SpringApplication application = application(Empty.class);
		application.setResourceLoader(new DefaultResourceLoader(new FilteredClassLoader("com.codahale.metrics")));
		run(application, "--distlock.zookeeper.embedded.enabled=true", "--distlock.zookeeper.embedded.port=0");
		assertThat(report(output))
			.contains("the embedded ZooKeeper server needs io.dropwizard.metrics:metrics-core on the class path")
			.contains("Action:")
			.contains("Add the dependency io.github.distlock:distlock-embedded-zookeeper");
	}

	@Test
	void embeddedServerPortInUseIsReportedWithThePort(CapturedOutput output) throws IOException {
		try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			run(application(Empty.class), "--distlock.zookeeper.embedded.enabled=true",
					"--distlock.zookeeper.embedded.port=" + taken.getLocalPort());
			assertThat(report(output))
				.contains("Embedded ZooKeeper server cannot listen on port " + taken.getLocalPort())
				.contains("Set distlock.zookeeper.embedded.port to a free port");
		}
	}

	@Test
	void badDurationPropertyIsReportedWithItsNameValueAndReason(CapturedOutput output) {
		run(application(Empty.class), NO_ZOOKEEPER, "--distlock.zookeeper.session-timeout=0s");
		assertThat(report(output))
			.contains("Invalid value '0s' for configuration property 'distlock.zookeeper.session-timeout'")
			.contains("must be a positive duration")
			.contains("Review the value of the property");
	}

	@Test
	void negativeWaitTimeOtherThanForeverIsReported(CapturedOutput output) {
		run(application(Empty.class), NO_ZOOKEEPER, "--distlock.lock.wait-time=-5s");
		assertThat(report(output)).contains("configuration property 'distlock.lock.wait-time'")
			.contains("or -1 (wait forever)");
	}

	@Test
	void badEmbeddedPortIsReported(CapturedOutput output) {
		run(application(Empty.class), "--distlock.zookeeper.embedded.enabled=true",
				"--distlock.zookeeper.embedded.port=70000");
		assertThat(report(output)).contains("configuration property 'distlock.zookeeper.embedded.port'")
			.contains("must be a port between 1 and 65535");
	}

	@Test
	void invalidNamespaceIsReported(CapturedOutput output) {
		run(application(Empty.class), NO_ZOOKEEPER, "--distlock.zookeeper.namespace=/locks");
		assertThat(report(output)).contains("configuration property 'distlock.zookeeper.namespace'");
	}

	private static SpringApplication application(Class<?> configuration) {
		SpringApplication application = new SpringApplication(configuration);
		application.setWebApplicationType(WebApplicationType.NONE);
		return application;
	}

	private static void run(SpringApplication application, String... args) {
		assertThatException().isThrownBy(() -> application.run(args).close());
	}

	/** The failure report, which must be there, from its banner on. */
	private static String report(CapturedOutput output) {
		String all = output.getAll();
		int start = all.indexOf("APPLICATION FAILED TO START");
		assertThat(start).as("failure report in:%n%s", all).isNotNegative();
		return all.substring(start).replaceAll("\\s+", " ");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DistlockEmbeddedZookeeperAutoConfiguration.class, DistlockAutoConfiguration.class })
	static class Empty {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DistlockEmbeddedZookeeperAutoConfiguration.class, DistlockAutoConfiguration.class })
	static class WithFinalLockedMethod {

		@Bean
		FinalLockedMethod finalLockedMethod() {
			return new FinalLockedMethod();
		}

	}

	static class FinalLockedMethod {

		@DistributedLock("jobs")
		public final void run() {
		}

	}

}
