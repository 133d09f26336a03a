package io.github.distlock.sample;

import java.time.Duration;
import java.util.List;

import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of the shop schedule the leader-only stock audit every 100 ms: only the
 * leader runs it; when the leader stops, the other instance goes on at once, under a
 * larger epoch.
 */
class StockAuditJobClusterTests {

	@Test
	void onlyTheLeaderAuditsAndTheOtherTakesOverWhenItStops() throws Exception {
		try (TestingServer zookeeper = new TestingServer();
				ConfigurableApplicationContext first = start("first", zookeeper);
				ConfigurableApplicationContext second = start("second", zookeeper)) {
			StockAuditJob audit = second.getBean(StockAuditJob.class);
			await().atMost(Duration.ofSeconds(30)).until(() -> audit.runs().size() >= 10);
			List<StockAuditJob.Run> before = audit.runs();
			assertThat(before).extracting(StockAuditJob.Run::instanceId).containsOnly(before.get(0).instanceId());
			assertThat(before).extracting(StockAuditJob.Run::epoch).containsOnly(before.get(0).epoch());
			ConfigurableApplicationContext leader = before.get(0).instanceId().equals("first") ? first : second;
			ConfigurableApplicationContext other = (leader == first) ? second : first;
			StockAuditJob otherAudit = other.getBean(StockAuditJob.class);
			leader.close();
			int ran = otherAudit.runs().size();
			await().atMost(Duration.ofSeconds(30)).until(() -> otherAudit.runs().size() >= ran + 5);
			List<StockAuditJob.Run> after = otherAudit.runs().subList(ran, otherAudit.runs().size());
			String otherId = (other == first) ? "first" : "second";
			assertThat(after).extracting(StockAuditJob.Run::instanceId).containsOnly(otherId);
			assertThat(after.get(0).epoch()).isGreaterThan(before.get(0).epoch());
		}
	}

	private static ConfigurableApplicationContext start(String instanceId, TestingServer zookeeper) {
		return new SpringApplicationBuilder(SampleApplication.class).run("--server.port=0",
				"--shop.instance-id=" + instanceId, "--distlock.zookeeper.embedded.enabled=false",
				"--distlock.zookeeper.connect-string=" + zookeeper.getConnectString(),
				"--distlock.zookeeper.session-timeout=5s",
				"--spring.datasource.url=jdbc:h2:mem:audit-cluster;DB_CLOSE_DELAY=-1", "--shop.restock.cron=-",
				"--shop.audit.interval=100ms", "--spring.jmx.enabled=false");
	}

}
