package io.github.distlock.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;
import io.github.distlock.core.StaleFencingTokenException;
import io.github.distlock.test.AutoConfigureDistlockZooKeeper;
import io.github.distlock.test.LockRecorder;
import io.github.distlock.transaction.FencedTransactions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Drives the sample over real HTTP, on the ZooKeeper server of distlock's test kit
 * (instead of the embedded one that {@code application.yml} enables), whose
 * {@link LockRecorder} shows the locks the purchases took.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "shop.initial-stock.race=20", "shop.initial-stock.red=12", "shop.initial-stock.green=12",
				"shop.initial-stock.blue=12", "shop.initial-stock.fenced=5", "shop.initial-stock.priced=1",
				"shop.initial-stock.counted=1", "shop.initial-stock.quoted=1", "shop.initial-stock.delivered=100",
				// The restock job (RestockJobClusterTests) would refill a SKU the tests
				// empty when a minute starts during the test.
				"shop.restock.cron=-" })
@AutoConfigureDistlockZooKeeper
class SampleApplicationTests {

	private static final int THREADS = 16;

	private static final int PURCHASES_PER_THREAD = 5;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	private int port;

	@Autowired
	private Locks locks;

	@Autowired
	private StockStore stockStore;

	@Autowired
	private OrderStore orderStore;

	@Autowired
	private ConcurrencyProbe probe;

	@Autowired
	private FencedTransactions fencedTransactions;

	@Autowired
	private JdbcClient jdbc;

	@Autowired
	private LockRecorder recorder;

	@Test
	void purchaseReducesTheStock() throws Exception {
		HttpResponse<String> purchase = post("/api/inventory/gadget/purchase?quantity=2");
		assertThat(purchase.statusCode()).isEqualTo(200);
		JsonNode body = this.json.readTree(purchase.body());
		assertThat(body.get("sku").asString()).isEqualTo("gadget");
		assertThat(body.get("order").asLong()).isPositive();
		assertThat(body.get("remaining").asInt()).isEqualTo(3);
		assertThat(this.json.readTree(get("/api/inventory/gadget").body()).get("available").asInt()).isEqualTo(3);
		// The purchase's transaction was fenced: it advanced the lock's fence row.
		assertThat(fence("gadget")).as("fencing token of the purchase").isPositive();
		HttpResponse<String> tooMany = post("/api/inventory/gadget/purchase?quantity=4");
		assertThat(tooMany.statusCode()).isEqualTo(409);
		assertThat(tooMany.body()).contains("Only 3 of 'gadget' left");
	}

	@Test
	void concurrentPurchasesOfLimitedStockNeverOversell() throws Exception {
		// 80 purchases of 1 race for 20 items; the service reads, pauses, then writes
		// the stock.
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
		// Each purchase took the SKU's lock, successful or not, each with a token of
		// its own.
		assertThat(this.recorder.getAcquisitions("inventory/#{#sku}")).hasSize(THREADS * PURCHASES_PER_THREAD)
			.allSatisfy((purchase) -> assertThat(purchase.getPath().value()).isEqualTo("inventory/race"));
		assertThat(this.recorder.getFencingTokens("inventory/race")).hasSize(THREADS * PURCHASES_PER_THREAD)
			.doesNotHaveDuplicates();
	}

	@Test
	void concurrentOrdersOfSeveralSkusNeverOversellAndAreAllOrNothing() throws Exception {
		// 16 threads x 5 orders, each of two of the three colours (one item each), race
		// for 12 items per colour: 36 items, 160 wanted.
		String[][] pairs = { { "red", "green" }, { "green", "blue" }, { "blue", "red" } };
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService executor = Executors.newFixedThreadPool(THREADS);
		Map<String, Integer> bought = new ConcurrentHashMap<>();
		try {
			List<Future<List<Integer>>> results = new ArrayList<>();
			for (int i = 0; i < THREADS; i++) {
				int thread = i;
				results.add(executor.submit(() -> {
					start.await();
					List<Integer> statuses = new ArrayList<>();
					for (int j = 0; j < PURCHASES_PER_THREAD; j++) {
						String[] pair = pairs[(thread + j) % pairs.length];
						HttpResponse<String> response = postJson("/api/orders", "{\"lines\":[{\"sku\":\"" + pair[0]
								+ "\",\"quantity\":1},{\"sku\":\"" + pair[1] + "\",\"quantity\":1}]}");
						statuses.add(response.statusCode());
						if (response.statusCode() == 200) {
							for (JsonNode line : this.json.readTree(response.body()).get("lines")) {
								bought.merge(line.get("sku").asString(), line.get("quantity").asInt(), Integer::sum);
							}
						}
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
			assertThat(statuses).filteredOn((status) -> status == 200).as("accepted orders").isNotEmpty();
		}
		finally {
			executor.shutdownNow();
		}
		for (String sku : List.of("red", "green", "blue")) {
			JsonNode stock = this.json.readTree(get("/api/inventory/" + sku).body());
			int available = stock.get("available").asInt();
			assertThat(available).as("stock of %s", sku).isNotNegative();
			assertThat(bought.getOrDefault(sku, 0) + available).as("sold + left of %s", sku).isEqualTo(12);
			assertThat(this.orderStore.sold(sku)).as("order lines of %s", sku).isEqualTo(bought.getOrDefault(sku, 0));
			assertThat(stock.get("mostConcurrentPurchases").asInt()).as("writers of %s at once", sku).isEqualTo(1);
			// An order's transaction is fenced by the lock of every SKU it wrote; a
			// refused order's fence rolled back with it.
			assertThat(fence(sku) > 0).as("fence row of %s advanced", sku).isEqualTo(bought.getOrDefault(sku, 0) > 0);
		}
	}

	@Test
	void orderFailsAsAWholeWhenOneSkuIsShort() throws Exception {
		int widgets = this.stockStore.available("widget");
		HttpResponse<String> response = postJson("/api/orders",
				"{\"lines\":[{\"sku\":\"widget\",\"quantity\":1},{\"sku\":\"gadget\",\"quantity\":99}]}");
		assertThat(response.statusCode()).isEqualTo(409);
		assertThat(response.body()).contains("of 'gadget' left, 99 requested");
		assertThat(this.stockStore.available("widget")).as("widgets after the rolled-back order").isEqualTo(widgets);
	}

	@Test
	void commitWithTheTokenOfAnOlderHolderIsRolledBack() {
		LockPath path = LockPath.of("inventory", "fenced");
		LockHandle first = this.locks.mutex(path).acquire(Duration.ofSeconds(5));
		// The first holder loses its lock (here: releases it) and a second takes it.
		first.close();
		long newer;
		try (LockHandle second = this.locks.mutex(path).acquire(Duration.ofSeconds(5))) {
			newer = second.fencingToken();
			assertThat(newer).isGreaterThan(first.fencingToken());
			this.fencedTransactions.execute(second, (status) -> {
				this.stockStore.writeAvailable("fenced", 4);
				return null;
			});
			// The first holder wakes up after a long pause and writes in a transaction
			// fenced by its old lock.
			assertThatExceptionOfType(StaleFencingTokenException.class)
				.isThrownBy(() -> this.fencedTransactions.execute(first, (status) -> {
					this.stockStore.writeAvailable("fenced", 3);
					return null;
				}))
				.withMessageContaining("rolled back")
				.satisfies((ex) -> assertThat(ex.getNewerToken()).isEqualTo(newer));
		}
		assertThat(this.stockStore.available("fenced")).isEqualTo(4);
		assertThat(fence("fenced")).as("token in the fence table").isEqualTo(newer);
	}

	@Test
	void pricesAreReadUnderTheReadLockAndChangedUnderTheWriteLock() throws Exception {
		assertThat(this.json.readTree(get("/api/catalog/priced").body()).get("priceCents").asLong()).isEqualTo(1000);
		HttpResponse<String> change = send(HttpRequest.newBuilder(uri("/api/catalog/priced?priceCents=1250"))
			.PUT(HttpRequest.BodyPublishers.noBody()));
		assertThat(change.statusCode()).isEqualTo(200);
		assertThat(this.json.readTree(get("/api/catalog/priced").body()).get("priceCents").asLong()).isEqualTo(1250);
		assertThat(get("/api/catalog/no-such-sku").statusCode()).isEqualTo(404);
		// While this thread holds the read lock, another instance's writer would wait.
		try (LockHandle reading = this.locks.readWrite(LockPath.of("catalog", "priced"))
			.readLock()
			.acquire(Duration.ofSeconds(5))) {
			HttpResponse<String> blocked = send(HttpRequest.newBuilder(uri("/api/catalog/priced?priceCents=1"))
				.PUT(HttpRequest.BodyPublishers.noBody()));
			assertThat(blocked.statusCode()).as("price change while a reader holds the lock").isEqualTo(503);
			assertThat(blocked.headers().firstValue("Retry-After")).hasValue("1");
			assertThat(blocked.headers().firstValue("Content-Type")).hasValue("application/problem+json");
			assertThat(blocked.body()).contains("\"title\":\"Resource busy\"")
				.doesNotContain("CatalogService")
				.doesNotContain("ZooKeeper");
		}
		assertThat(this.json.readTree(get("/api/catalog/priced").body()).get("priceCents").asLong()).isEqualTo(1250);
	}

	@Test
	void atMostTwoReportsAreBuiltAtOnce() throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(6);
		try {
			List<Future<HttpResponse<String>>> reports = new ArrayList<>();
			for (int i = 0; i < 6; i++) {
				reports.add(executor.submit(() -> get("/api/reports/sales")));
			}
			for (Future<HttpResponse<String>> report : reports) {
				assertThat(report.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(this.probe.mostConcurrent("reports")).as("reports built at once").isBetween(1, 2);
	}

	@Test
	void stockTakeReplacesTheStockUnderTheLock() throws Exception {
		HttpResponse<String> count = send(HttpRequest.newBuilder(uri("/api/inventory/counted?available=42"))
			.PUT(HttpRequest.BodyPublishers.noBody()));
		assertThat(count.statusCode()).isEqualTo(200);
		assertThat(this.json.readTree(count.body()).get("available").asInt()).isEqualTo(42);
		assertThat(fence("counted")).as("fencing token of the stock-take").isPositive();
	}

	@Test
	void reactiveQuoteIsBuiltUnderTheReadLockUntilItsMonoEnds() throws Exception {
		HttpResponse<String> quote = get("/api/catalog/quoted/quote?quantity=3");
		assertThat(quote.statusCode()).isEqualTo(200);
		assertThat(quote.body()).isEqualTo("{\"sku\":\"quoted\",\"quantity\":3,\"totalCents\":3000}");
		assertThat(get("/api/catalog/no-such-sku/quote").statusCode()).isEqualTo(404);
		// While another holder writes the price, a quote waits its 2 s and gets 503.
		try (LockHandle writing = this.locks.readWrite(LockPath.of("catalog", "quoted"))
			.writeLock()
			.acquire(Duration.ofSeconds(5))) {
			assertThat(get("/api/catalog/quoted/quote").statusCode()).as("quote while the price is written")
				.isEqualTo(503);
		}
		assertThat(get("/api/catalog/quoted/quote").statusCode()).isEqualTo(200);
	}

	@Test
	void concurrentDeliveriesAsCompletableFuturesNeverLoseAnItem() throws Exception {
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService executor = Executors.newFixedThreadPool(THREADS);
		try {
			List<Future<List<Integer>>> results = new ArrayList<>();
			for (int i = 0; i < THREADS; i++) {
				results.add(executor.submit(() -> {
					start.await();
					List<Integer> statuses = new ArrayList<>();
					for (int j = 0; j < PURCHASES_PER_THREAD; j++) {
						statuses.add(post("/api/inventory/delivered/deliveries?quantity=1").statusCode());
					}
					return statuses;
				}));
			}
			start.countDown();
			for (Future<List<Integer>> result : results) {
				assertThat(result.get(60, TimeUnit.SECONDS)).containsOnly(200);
			}
		}
		finally {
			executor.shutdownNow();
		}
		JsonNode stock = this.json.readTree(get("/api/inventory/delivered").body());
		assertThat(stock.get("available").asInt()).isEqualTo(100 + THREADS * PURCHASES_PER_THREAD);
		assertThat(stock.get("mostConcurrentPurchases").asInt()).as("writers inside the lock at once").isEqualTo(1);
		assertThat(fence("delivered")).as("fencing token of the last delivery").isPositive();
	}

	@Test
	void actuatorExposesHealthAndMetrics() throws Exception {
		HttpResponse<String> health = get("/actuator/health");
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(this.json.readTree(health.body()).get("status").asString()).isEqualTo("UP");
		assertThat(get("/actuator/metrics").statusCode()).isEqualTo(200);
	}

	/** The newest fencing token a fenced transaction committed for a SKU's lock. */
	private long fence(String sku) {
		return this.jdbc.sql("select token from distlock_fence where lock_path = ?")
			.param("mutex/inventory/" + sku)
			.query(Long.class)
			.optional()
			.orElse(0L);
	}

	private HttpResponse<String> postJson(String path, String body) throws Exception {
		return send(HttpRequest.newBuilder(uri(path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body)));
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
