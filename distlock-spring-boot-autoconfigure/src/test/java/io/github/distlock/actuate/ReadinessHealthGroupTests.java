package io.github.distlock.actuate;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The readiness group of docs/production.md, over real HTTP: with {@code distlock} in the
 * readiness group, {@code /actuator/health/readiness} answers 503 while ZooKeeper is gone
 * and 200 once it is back, and liveness stays 200 throughout (a restart would not bring
 * ZooKeeper back).
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "distlock.zookeeper.session-timeout=4s", "distlock.zookeeper.connection-timeout=2s",
				"distlock.zookeeper.retry.max-sleep-time=500ms", "distlock.health.timeout=1s",
				"management.endpoint.health.probes.enabled=true",
				"management.endpoint.health.group.readiness.include=readinessState,distlock" })
class ReadinessHealthGroupTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void zookeeper(DynamicPropertyRegistry registry) {
		DistlockContextRunners.registerConnectString(registry, zookeeper);
	}

	@Test
	void readinessFollowsZooKeeperAndLivenessDoesNot() throws Exception {
		await().atMost(Duration.ofSeconds(20)).until(() -> status("/actuator/health/readiness") == 200);
		assertThat(status("/actuator/health/liveness")).isEqualTo(200);
		zookeeper.server().stop();
		await().atMost(Duration.ofSeconds(20)).until(() -> status("/actuator/health/readiness") == 503);
		assertThat(status("/actuator/health/liveness")).isEqualTo(200);
		zookeeper.server().restart();
		await().atMost(Duration.ofSeconds(30)).until(() -> status("/actuator/health/readiness") == 200);
		assertThat(status("/actuator/health/liveness")).isEqualTo(200);
	}

	private int status(String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.build();
		return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
	}

	@SpringBootConfiguration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class Application {

	}

}
