package io.github.distlock.autoconfigure;

import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Environment;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an application logs at startup against an external ZooKeeper, with Spring Boot's
 * default levels (everything at INFO): neither ZooKeeper's "Client environment:" report
 * nor Curator's warning about a session timeout shorter than the connection timeout,
 * which the recommended {@code session-timeout: 6s} used to bring.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupLogTests {

	private static final String LOGGING_CONFIG = "--logging.config=classpath:io/github/distlock/autoconfigure/application-logback.xml";

	private static final String TIMEOUT_WARNING = "is less than connection timeout";

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@AfterAll
	static void restoreTestLogging() throws Exception {
		LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
		context.reset();
		new ContextInitializer(context).autoConfig();
	}

	@Test
	void clientEnvironmentIsNotLogged(CapturedOutput output) throws Exception {
		try (ConfigurableApplicationContext context = run()) {
			connect(context);
			reportClientEnvironment();
		}
		assertThat(output).contains("INFO org.apache.zookeeper.ClientCnxn").doesNotContain("Client environment:");
	}

	@Test
	void levelSetForZookeeperWins(CapturedOutput output) throws Exception {
		try (ConfigurableApplicationContext context = run("--logging.level.org.apache.zookeeper=info")) {
			connect(context);
			reportClientEnvironment();
		}
		assertThat(output).contains("INFO org.apache.zookeeper.ZooKeeper - Client environment:");
	}

	@Test
	void shortSessionTimeoutAloneBringsNoTimeoutWarning(CapturedOutput output) throws Exception {
		try (ConfigurableApplicationContext context = run("--distlock.zookeeper.session-timeout=6s")) {
			connect(context);
			assertThat(context.getBean(CuratorFramework.class).getZookeeperClient().getConnectionTimeoutMs())
				.isEqualTo(6000);
		}
		assertThat(output).contains("INFO org.apache.zookeeper.ClientCnxn").doesNotContain(TIMEOUT_WARNING);
	}

	@Test
	void connectionTimeoutSetLongerThanTheSessionTimeoutIsKeptAndWarnedAbout(CapturedOutput output) throws Exception {
		try (ConfigurableApplicationContext context = run("--distlock.zookeeper.session-timeout=6s",
				"--distlock.zookeeper.connection-timeout=15s")) {
			assertThat(context.getBean(CuratorFramework.class).getZookeeperClient().getConnectionTimeoutMs())
				.isEqualTo(15000);
		}
		assertThat(output).contains("session timeout [6000] " + TIMEOUT_WARNING + " [15000]");
	}

	private static ConfigurableApplicationContext run(String... arguments) {
		String[] all = new String[arguments.length + 2];
		all[0] = LOGGING_CONFIG;
		all[1] = "--" + DistlockContextRunners.connectString(zookeeper);
		System.arraycopy(arguments, 0, all, 2, arguments.length);
		return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE).run(all);
	}

	private static void connect(ConfigurableApplicationContext context) throws InterruptedException {
		assertThat(context.getBean(CuratorFramework.class).blockUntilConnected(20, TimeUnit.SECONDS)).isTrue();
	}

	/**
	 * ZooKeeper reports the environment once per JVM, when its client class loads, which
	 * an earlier test may have done: report it again, through the same logger.
	 */
	private static void reportClientEnvironment() {
		Environment.logEnv("Client environment:", LoggerFactory.getLogger(ZooKeeper.class));
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(DistlockAutoConfiguration.class)
	static class Application {

	}

}
