package io.github.distlock.sample;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of the shop, two application contexts with their own ZooKeeper sessions,
 * share one ZooKeeper server and one database. Their restock jobs fire at the same moment
 * every second and take 300 ms; the job must run exactly once per period across both.
 * (With {@code -DargLine=-Ddistlock.enabled=false} this test fails: both instances run
 * most periods.)
 */
class RestockJobClusterTests {

	private static final int PERIODS = 5;

	private static TestingServer zookeeper;

	private static ConfigurableApplicationContext first;

	private static ConfigurableApplicationContext second;

	@BeforeAll
	static void startTwoInstances() throws Exception {
		zookeeper = new TestingServer();
		first = start("first");
		second = start("second");
	}

	@AfterAll
	static void stopEverything() throws Exception {
		for (ConfigurableApplicationContext context : new ConfigurableApplicationContext[] { first, second }) {
			if (context != null) {
				context.close();
			}
		}
		if (zookeeper != null) {
			zookeeper.close();
		}
	}

	@Test
	void jobRunsOnOneInstancePerPeriod() {
		JdbcClient jdbc = first.getBean(JdbcClient.class);
		await().atMost(Duration.ofSeconds(30))
			.until(() -> jdbc.sql("select count(distinct period) from restock_runs")
				.query(Integer.class)
				.single() >= PERIODS);
		List<RestockJob.Run> runs = first.getBean(RestockJob.class).runs(1000);
		Map<Long, List<String>> instancesByPeriod = runs.stream()
			.collect(Collectors.groupingBy(RestockJob.Run::period,
					Collectors.mapping(RestockJob.Run::instanceId, Collectors.toList())));
		assertThat(instancesByPeriod).hasSizeGreaterThanOrEqualTo(PERIODS);
		assertThat(instancesByPeriod).allSatisfy(
				(period, instances) -> assertThat(instances).as("instances that ran period %d", period).hasSize(1));
		assertThat(runs).extracting(RestockJob.Run::instanceId).isSubsetOf("first", "second");
	}

	private static ConfigurableApplicationContext start(String instanceId) {
		return new SpringApplicationBuilder(SampleApplication.class).run("--server.port=0",
				"--shop.instance-id=" + instanceId, "--distlock.zookeeper.embedded.enabled=false",
				"--distlock.zookeeper.connect-string=" + zookeeper.getConnectString(),
				"--distlock.zookeeper.session-timeout=5s",
				"--spring.datasource.url=jdbc:h2:mem:restock-cluster;DB_CLOSE_DELAY=-1",
				"--shop.restock.cron=* * * * * *", "--shop.restock.period=1s", "--shop.restock.work-time=300ms",
				"--shop.restock.hold-at-least=800ms", "--spring.jmx.enabled=false");
	}

}
