package io.github.distlock.sample;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.distlock.autoconfigure.embedded.EmbeddedZookeeperServer;
import io.github.distlock.sample.DocumentedCurls.Curl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every {@code curl} the READMEs and docs show, sent over real HTTP to a freshly started
 * sample (its own embedded ZooKeeper and its own in-memory database, as after
 * {@code ./mvnw -pl sample-app -am spring-boot:run}), in document order, answering as
 * documented (see {@link DocumentedCurls} for what is compared). The restock job is off,
 * so that no run of it changes the stock or the metrics between two commands.
 */
class DocumentedCurlsTests {

	private final JsonMapper json = JsonMapper.builder().build();

	@Test
	void readmeCurlsAnswerAsDocumented() throws Exception {
		runInOrder(Path.of("..", "README.md"));
	}

	@Test
	void sampleReadmeCurlsAnswerAsDocumented() throws Exception {
		runInOrder(Path.of("README.md"));
	}

	@Test
	void quickStartCurlsAnswerAsDocumented() throws Exception {
		runInOrder(Path.of("..", "docs", "quick-start.md"));
	}

	@Test
	void overviewCurlsAnswerAsDocumented() throws Exception {
		runInOrder(Path.of("..", "docs", "index.md"));
	}

	/**
	 * The endpoint examples of {@code operations.md} show a lock held by one purchase,
	 * awaited by a second purchase of the same instance and, in ZooKeeper, by a purchase
	 * of a second instance: that is set up (with purchases that take 5 s) before the
	 * first {@code /actuator/distlock} command.
	 */
	@Test
	void operationsCurlsAnswerAsDocumented() throws Exception {
		List<Curl> curls = curls(Path.of("..", "docs", "operations.md"));
		String[] slowPurchases = { "--shop.think-time=5s", "--distlock.lock.wait-time=30s" };
		try (ConfigurableApplicationContext shop = start("operations", slowPurchases)) {
			int port = port(shop);
			String zookeeper = shop.getBean(EmbeddedZookeeperServer.class).getConnectString();
			try (ConfigurableApplicationContext otherShop = start("operations-other", slowPurchases[1],
					"--distlock.zookeeper.embedded.enabled=false",
					"--distlock.zookeeper.connect-string=" + zookeeper)) {
				List<CompletableFuture<HttpResponse<String>>> purchases = new ArrayList<>();
				for (Curl curl : curls) {
					if (curl.target().startsWith("/actuator/distlock") && purchases.isEmpty()) {
						holdAndAwait(port, port(otherShop), purchases);
					}
					DocumentedCurls.assertAnswersAsDocumented(curl, port);
				}
				assertThat(purchases).as("the endpoint examples were checked").isNotEmpty();
				for (CompletableFuture<HttpResponse<String>> purchase : purchases) {
					assertThat(purchase.get(60, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
				}
			}
		}
	}

	/**
	 * One purchase holds {@code inventory/widget}; then a second purchase of this
	 * instance waits for it (in this JVM), and one of the other instance (in ZooKeeper).
	 */
	private void holdAndAwait(int port, int otherPort, List<CompletableFuture<HttpResponse<String>>> purchases) {
		purchases.add(purchase(port));
		await().atMost(Duration.ofSeconds(10)).until(() -> get(port, "/actuator/distlock").get("held").size() == 1);
		purchases.add(purchase(port));
		purchases.add(purchase(otherPort));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> get(port, "/actuator/distlock").get("waiting").size() == 1
					&& get(port, "/actuator/distlock/inventory/widget").get("locks").get(0).get("nodes").size() == 2);
	}

	private static CompletableFuture<HttpResponse<String>> purchase(int port) {
		Curl purchase = Curl.parse("purchase",
				"curl -X POST 'localhost:8080/api/inventory/widget/purchase?quantity=1'");
		return CompletableFuture.supplyAsync(() -> {
			try {
				return DocumentedCurls.send(purchase, port);
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	private JsonNode get(int port, String target) throws Exception {
		Curl curl = Curl.parse(target, "curl localhost:8080" + target);
		return this.json.readTree(DocumentedCurls.send(curl, port).body());
	}

	private static void runInOrder(Path document) throws Exception {
		List<Curl> curls = curls(document);
		String name = document.normalize().toString().replaceAll("[^A-Za-z0-9]+", "-");
		try (ConfigurableApplicationContext shop = start(name)) {
			for (Curl curl : curls) {
				DocumentedCurls.assertAnswersAsDocumented(curl, port(shop));
			}
		}
	}

	private static List<Curl> curls(Path document) throws Exception {
		List<Curl> curls = DocumentedCurls.of(document);
		assertThat(curls).as("curl commands in %s", document).isNotEmpty();
		return curls;
	}

	private static ConfigurableApplicationContext start(String name, String... arguments) {
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--spring.jmx.enabled=false",
				"--shop.restock.cron=-", "--spring.datasource.url=jdbc:h2:mem:docs-" + name + ";DB_CLOSE_DELAY=-1"));
		args.addAll(List.of(arguments));
		return new SpringApplicationBuilder(SampleApplication.class).run(args.toArray(String[]::new));
	}

	private static int port(ConfigurableApplicationContext context) {
		return ((WebServerApplicationContext) context).getWebServer().getPort();
	}

}
