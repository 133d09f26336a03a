package io.github.distlock.embedded;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.Locks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application with the starter and this one dependency, nothing else, starts the
 * embedded development server with {@code distlock.zookeeper.embedded.enabled=true},
 * locks on it, and stays quiet: ZooKeeper logs nothing at INFO, neither at startup nor at
 * shutdown.
 */
@ExtendWith(OutputCaptureExtension.class)
class EmbeddedZookeeperDependencyTests {

	private static final Pattern ZOOKEEPER_INFO = Pattern.compile("(?m)^INFO org\\.apache\\.zookeeper\\..*$");

	@Test
	void starterAndThisDependencyAloneRunTheEmbeddedServerQuietly(CapturedOutput output) {
		// Nothing but this module brings the server's dependencies: no test
		// harness either.
		assertThat(ClassUtils.isPresent("org.apache.curator.test.TestingServer", null)).isFalse();
		SpringApplication application = new SpringApplication(Application.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		try (ConfigurableApplicationContext context = application.run("--distlock.zookeeper.embedded.enabled=true",
				"--distlock.zookeeper.embedded.port=0")) {
			try (LockHandle lock = context.getBean(Locks.class)
				.mutex("embedded/probe")
				.acquire(Duration.ofSeconds(10))) {
				assertThat(lock.fencingToken()).isPositive();
			}
		}
		awaitServerThreadsEnded();
		String log = output.getAll();
		// The output is captured: distlock's own warning about the development server
		// is there.
		assertThat(log).contains("WARN io.github.distlock.autoconfigure.embedded.EmbeddedZookeeperServer - "
				+ "Started an embedded ZooKeeper server");
		List<String> zookeeperInfo = ZOOKEEPER_INFO.matcher(log).results().map((match) -> match.group()).toList();
		assertThat(zookeeperInfo).isEmpty();
		assertThat(log).doesNotContain("ZK server died");
	}

	@Test
	void zookeeperLevelSetByTheApplicationWins(CapturedOutput output) {
		SpringApplication application = new SpringApplication(Application.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		try (ConfigurableApplicationContext context = application.run("--distlock.zookeeper.embedded.enabled=true",
				"--distlock.zookeeper.embedded.port=0", "--logging.level.org.apache.zookeeper=info")) {
			assertThat(context.getBean(Locks.class)).isNotNull();
		}
		// Its last line at INFO is not left to the output of the next test.
		awaitServerThreadsEnded();
		assertThat(ZOOKEEPER_INFO.matcher(output.getAll()).find()).isTrue();
	}

	/**
	 * Wait until the server's session tracker has ended: the server's close does not wait
	 * for it, and it logs its last line ("exited loop!") as it ends, which a loaded
	 * machine delays past the context's close.
	 */
	private static void awaitServerThreadsEnded() {
		await().atMost(Duration.ofSeconds(30))
			.until(() -> Thread.getAllStackTraces()
				.keySet()
				.stream()
				.noneMatch((thread) -> thread.getName().equals("SessionTracker")));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
