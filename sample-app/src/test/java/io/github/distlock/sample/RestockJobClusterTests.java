package io.github.distlock.sample;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.jdbc.core.simple.JdbcClient;

import io.github.distlock.test.DistlockNodes;
import io.github.distlock.test.DistlockZooKeeperExtension;
import io.github.distlock.test.TestZooKeeper;

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

	@RegisterExtension
	static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension();

	@Test
	void jobRunsOnOneInstancePerPeriod(TestZooKeeper zookeeper) {
		try (DistlockNodes shop = zookeeper.startNodes(2,
				(index) -> new SpringApplicationBuilder(SampleApplication.class)
					.properties("shop.instance-id=instance-" + index),
				// one in-memory database shared by both instances of this JVM
				"--spring.datasource.url=jdbc:h2:mem:restock-cluster;DB_CLOSE_DELAY=-1",
				// every second on both, 300 ms each: unlocked, both run most periods
				"--shop.restock.cron=* * * * * *", "--shop.restock.period=1s", "--shop.restock.work-time=300ms")) {
			JdbcClient jdbc = shop.first().getBean(JdbcClient.class);
			await().atMost(Duration.ofSeconds(30))
				.until(() -> jdbc.sql("select count(distinct period) from restock_runs")
					.query(Integer.class)
					.single() >= PERIODS);
			List<RestockJob.Run> runs = shop.first().getBean(RestockJob.class).runs(1000);
			Map<Long, List<String>> instancesByPeriod = runs.stream()
				.collect(Collectors.groupingBy(RestockJob.Run::period,
						Collectors.mapping(RestockJob.Run::instanceId, Collectors.toList())));
			assertThat(instancesByPeriod).hasSizeGreaterThanOrEqualTo(PERIODS);
			assertThat(instancesByPeriod).allSatisfy(
					(period, instances) -> assertThat(instances).as("instances that ran period %d", period).hasSize(1));
			assertThat(runs).extracting(RestockJob.Run::instanceId).isSubsetOf("instance-1", "instance-2");
		}
	}

}
