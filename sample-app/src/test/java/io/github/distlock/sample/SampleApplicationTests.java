package io.github.distlock.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Drives the sample over real HTTP, on the embedded ZooKeeper server that
 * {@code application.yml} enables.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "inventory.initial-stock.race=20")
class SampleApplicationTests {

	private static final int THREADS = 16;

	private static final int PURCHASES_PER_THREAD = 5;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	private int port;

	@Test
	void purchaseReducesTheStock() throws Exception {
		HttpResponse<String> purchase = post("/api/inventory/gadget/purchase?quantity=2");
		assertThat(purchase.statusCode()).isEqualTo(200);
		JsonNode body = this.json.readTree(purchase.body());
		assertThat(body.get("sku").asString()).isEqualTo("gadget");
		assertThat(body.get("remaining").asInt()).isEqualTo(3);
		assertThat(this.json.readTree(get("/api/inventory/gadget").body()).get("available").asInt()).isEqualTo(3);
		HttpResponse<String> tooMany = post("/api/inventory/gadget/purchase?quantity=4");
		assertThat(tooMany.statusCode()).isEqualTo(409);
		assertThat(tooMany.body()).contains("Only 3 of 'gadget' left");
	}

	@Test
	void concurrentPurchasesOfLimitedStockNeverOversell() throws Exception {
		// 80 purchases of 1 race for 20 items; the service reads, pauses, then writes the
		// stock.
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService executor = Executors.newFixedThreadPool(THREADS);
		try {
			List<Future<List<Integer>>> results = new ArrayList<>();
			for (int i = 0; i < THREADS; i++) {
				results.add(executor.submit(() -> {
					start.await();
					List<Integer> statuses = new ArrayList<>();
					for (int j = 0; j < PURCHASES_PER_THREAD; j++) {
						statuses.add(post("/api/inventory/race/purchase?quantity=1").statusCode());
					}
					return statuses;
				}));
			}
			start.countDown();
			List<Integer> statuses = new ArrayList<>();
			for (Future<List<Integer>> result : results) {
				statuses.addAll(result.get(60, TimeUnit.SECONDS));
			}
			assertThat(statuses).hasSize(THREADS * PURCHASES_PER_THREAD).containsOnly(200, 409);
			assertThat(statuses).filteredOn((status) -> status == 200).as("successful purchases").hasSize(20);
		}
		finally {
			executor.shutdownNow();
		}
		JsonNode stock = this.json.readTree(get("/api/inventory/race").body());
		assertThat(stock.get("available").asInt()).isZero();
		assertThat(stock.get("mostConcurrentPurchases").asInt()).as("purchases inside the lock at once").isEqualTo(1);
	}

	private HttpResponse<String> post(String path) throws Exception {
		return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()));
	}

	private HttpResponse<String> get(String path) throws Exception {
		return send(HttpRequest.newBuilder(uri(path)).GET());
	}

	private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
		return this.http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://localhost:" + this.port + path);
	}

}
