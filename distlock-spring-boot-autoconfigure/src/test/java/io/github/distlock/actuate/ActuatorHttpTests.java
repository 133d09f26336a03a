package io.github.distlock.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The health indicator and the {@code distlock} endpoint over real HTTP, in an
 * application with actuator and Spring MVC on a random port, against a real ZooKeeper
 * server that is stopped and restarted.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "distlock.zookeeper.session-timeout=4s", "distlock.zookeeper.connection-timeout=2s",
				"distlock.zookeeper.retry.max-sleep-time=500ms",
				"management.endpoints.web.exposure.include=health,distlock,metrics",
				"management.endpoint.health.show-details=always" })
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ActuatorHttpTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	@LocalServerPort
	private int port;

	@Autowired
	private Inventory inventory;

	@Autowired
	private MeterRegistry meterRegistry;

	@DynamicPropertySource
	static void zookeeper(DynamicPropertyRegistry registry) {
		DistlockContextRunners.registerConnectString(registry, zookeeper);
	}

	@Test
	@Order(1)
	void endpointListsTheHeldLockWithItsFencingTokenAndThePathViewShowsAnotherNodesWaiter() throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(2);
		// Another node of the application: its namespace and session timeout.
		NodeOptions otherNode = NodeOptions.defaults()
			.withNamespace("distlock")
			.withSessionTimeout(Duration.ofSeconds(4))
			.withApplicationName("other-node")
			.withDefaultWaitTime(Duration.ofSeconds(30));
		CuratorFramework otherClient = otherNode.startClient(zookeeper.connectString());
		try (CuratorLocks otherLocks = otherNode.createLocks(otherClient)) {
			Future<Long> holder = executor.submit(() -> this.inventory.reserve("widget"));
			assertThat(Inventory.entered.await(10, TimeUnit.SECONDS)).isTrue();
			long token = Inventory.token;

			DocumentContext locks = getJson("/actuator/distlock", 200);
			assertThat(locks.read("$.held.length()", Integer.class)).isOne();
			assertThat(locks.read("$.held[0]", Map.class)).containsEntry("path", "inventory/widget")
				.containsEntry("kind", "mutex")
				.containsEntry("template", "inventory/#{#sku}")
				.containsEntry("state", "HELD")
				.containsEntry("holder", Inventory.thread)
				.containsKey("acquiredAt")
				.doesNotContainKey("since");
			assertThat(locks.read("$.held[0].fencingToken", Long.class)).isEqualTo(token);
			assertThat(locks.read("$.waiting", List.class)).isEmpty();

			Future<Long> waiter = executor.submit(() -> {
				try (LockHandle handle = otherLocks.mutex("inventory/widget").acquire(Duration.ofSeconds(30))) {
					return handle.fencingToken();
				}
			});
			DocumentContext queue = await().atMost(Duration.ofSeconds(10)).until(() -> {
				DocumentContext view = getJson("/actuator/distlock/inventory/widget", 200);
				return (view.read("$.locks[0].nodes.length()", Integer.class) == 2) ? view : null;
			}, (view) -> view != null);
			assertThat(queue.read("$.path", String.class)).isEqualTo("inventory/widget");
			assertThat(queue.read("$.locks.length()", Integer.class)).isOne();
			assertThat(queue.read("$.locks[0].kind", String.class)).isEqualTo("mutex");
			assertThat(queue.read("$.locks[0].node", String.class)).isEqualTo("/mutex/inventory/widget");
			assertThat(queue.read("$.locks[0].nodes[0]", Map.class)).containsKeys("holds", "createdAt")
				.doesNotContainKeys("holder", "created");
			assertThat(queue.read("$.locks[0].nodes[0].holds", Boolean.class)).isTrue();
			assertThat(queue.read("$.locks[0].nodes[0].fencingToken", Long.class)).isEqualTo(token);
			assertThat(queue.read("$.locks[0].nodes[0].identity.pid", Long.class))
				.isEqualTo(ProcessHandle.current().pid());
			assertThat(queue.read("$.locks[0].nodes[0].identity.thread", String.class)).isEqualTo(Inventory.thread);
			assertThat(queue.read("$.locks[0].nodes[1].holds", Boolean.class)).isFalse();
			assertThat(queue.read("$.locks[0].nodes[1].identity.app", String.class)).isEqualTo("other-node");
			assertThat(queue.read("$.locks[0].nodes[1].fencingToken", Long.class)).isGreaterThan(token);
			assertThat(queue.read("$.locks[0].nodes[1].sequence", Long.class))
				.isGreaterThan(queue.read("$.locks[0].nodes[0].sequence", Long.class));

			Inventory.release.countDown();
			assertThat(holder.get(10, TimeUnit.SECONDS)).isEqualTo(token);
			assertThat(waiter.get(10, TimeUnit.SECONDS)).isGreaterThan(token);
		}
		finally {
			executor.shutdownNow();
			otherClient.close();
		}
		DocumentContext nothing = getJson("/actuator/distlock/inventory/nothing-here", 404);
		assertThat(nothing.read("$.path", String.class)).isEqualTo("inventory/nothing-here");
		assertThat(nothing.read("$.message", String.class))
			.isEqualTo("No lock of any kind is held or awaited at 'inventory/nothing-here': ZooKeeper has no "
					+ "lock node there");
		DocumentContext invalid = getJson("/actuator/distlock/inventory/%2E%2E", 400);
		assertThat(invalid.read("$.path", String.class)).isEqualTo("inventory/..");
		assertThat(invalid.read("$.message", String.class)).startsWith("Invalid lock path 'inventory/..': ")
			.contains("'..'");
		assertThat(this.meterRegistry.get("distlock.lock.acquire")
			.tags("kind", "mutex", "name", "inventory/#{#sku}", "outcome", "acquired")
			.timer()
			.count()).isOne();
		DocumentContext metric = getJson("/actuator/metrics/distlock.lock.hold", 200);
		assertThat(metric.read("$.availableTags[?(@.tag == 'name')].values[*]", List.class))
			.containsExactly("inventory/#{#sku}");
	}

	@Test
	@Order(2)
	void healthIsUpWhileConnectedDownWhenZooKeeperStopsAndUpAgainWhenItReturns() throws Exception {
		DocumentContext up = getJson("/actuator/health", 200);
		assertThat(up.read("$.components.distlock.status", String.class)).isEqualTo("UP");
		Map<String, Object> details = up.read("$.components.distlock.details");
		assertThat(details).containsEntry("connectString", zookeeper.connectString())
			.containsEntry("sessionTimeout", "PT4S")
			.containsEntry("locksHeld", 0)
			.containsKey("state");
		assertThat((String) details.get("sessionId")).matches("0x[0-9a-f]+");

		zookeeper.server().stop();
		DocumentContext down = await().atMost(Duration.ofSeconds(4))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> getJson("/actuator/health", 503),
					(health) -> "DOWN".equals(health.read("$.components.distlock.status", String.class)));
		assertThat(down.read("$.components.distlock.details.state", String.class)).isIn("SUSPENDED", "LOST");

		zookeeper.server().restart();
		await().atMost(Duration.ofSeconds(30))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> getJson("/actuator/health", null),
					(health) -> "UP".equals(health.read("$.components.distlock.status", String.class)));
	}

	private DocumentContext getJson(String path, Integer expectedStatus) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + path))
			.timeout(Duration.ofSeconds(10))
			.build();
		HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
		if (expectedStatus != null) {
			assertThat(response.statusCode()).as("status of %s: %s", path, response.body()).isEqualTo(expectedStatus);
		}
		return JsonPath.parse(response.body().isEmpty() ? "{}" : response.body());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class TestApplication {

		@Bean
		Inventory inventory() {
			return new Inventory();
		}

	}

	static class Inventory {

		// Static: the proxied bean is a CGLIB subclass with fields of its own.
		static final CountDownLatch entered = new CountDownLatch(1);

		static final CountDownLatch release = new CountDownLatch(1);

		static volatile long token;

		static volatile String thread;

		@DistributedLock("inventory/#{#sku}")
		public long reserve(String sku) throws InterruptedException {
			token = LockContext.current().fencingToken(LockPath.of("inventory", sku));
			thread = Thread.currentThread().getName();
			entered.countDown();
			release.await(20, TimeUnit.SECONDS);
			return token;
		}

	}

}
