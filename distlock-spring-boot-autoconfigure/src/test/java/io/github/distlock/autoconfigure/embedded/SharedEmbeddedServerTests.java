package io.github.distlock.autoconfigure.embedded;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.Locks;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several local instances share one ZooKeeper as docs/configuration.md says: the first
 * runs the embedded server on a fixed port, the others point their connect string at it,
 * and their locks exclude each other.
 */
class SharedEmbeddedServerTests {

	@Test
	void secondInstancePointedAtTheFirstOnesEmbeddedServerSharesItsLocks() throws IOException {
		int port = freePort();
		try (ConfigurableApplicationContext first = start("--distlock.zookeeper.embedded.enabled=true",
				"--distlock.zookeeper.embedded.port=" + port);
				ConfigurableApplicationContext second = start("--distlock.zookeeper.embedded.enabled=false",
						"--distlock.zookeeper.connect-string=127.0.0.1:" + port)) {
			assertThat(second.getBeansOfType(EmbeddedZookeeperServer.class)).isEmpty();
			Locks firstLocks = first.getBean(Locks.class);
			Locks secondLocks = second.getBean(Locks.class);
			try (LockHandle held = firstLocks.mutex("jobs/restock").acquire(Duration.ofSeconds(10))) {
				assertThat(secondLocks.mutex("jobs/restock").tryAcquire(Duration.ofMillis(200))).isEmpty();
			}
			try (LockHandle next = secondLocks.mutex("jobs/restock").acquire(Duration.ofSeconds(10))) {
				assertThat(next.fencingToken()).isPositive();
			}
		}
	}

	private static ConfigurableApplicationContext start(String... args) {
		SpringApplication application = new SpringApplication(Instance.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		return application.run(args);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DistlockEmbeddedZookeeperAutoConfiguration.class, DistlockAutoConfiguration.class })
	static class Instance {

	}

}
