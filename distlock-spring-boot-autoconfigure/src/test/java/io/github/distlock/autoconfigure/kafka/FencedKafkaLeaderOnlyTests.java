package io.github.distlock.autoconfigure.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import io.github.distlock.annotation.LeaderOnly;
import io.github.distlock.annotation.OnNotLeader;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.leadership.DistlockLeadershipAutoConfiguration;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.StaleFencingTokenException;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @LeaderOnly(fenced = true)} on Kafka: a leader's sends go through the producer
 * of the group's {@code transactional.id} ({@code distlock-leader/<group>}), so the new
 * leader's producer fences the old leader's. Two instances (Spring Boot applications)
 * share an embedded KRaft broker; the old leader reaches ZooKeeper through a relay that
 * is paused while its session is ended on the server, so it goes on believing it leads
 * and only the broker can stop its commit.
 */
class FencedKafkaLeaderOnlyTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final String TOPIC = "invoice-runs";

	// Long sessions: the instance behind the paused relay must not notice the cut for
	// the length of the test.
	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension(NodeOptions.defaults())
		.withTickTime(Duration.ofSeconds(2));

	private static EmbeddedKafkaKraftBroker broker;

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@BeforeAll
	static void startBroker() {
		broker = new EmbeddedKafkaKraftBroker(1, 1, TOPIC);
		broker.brokerProperties(Map.of("transaction.state.log.replication.factor", "1", "transaction.state.log.min.isr",
				"1", "transaction.state.log.num.partitions", "1"));
		broker.afterPropertiesSet();
	}

	@AfterAll
	static void stopBroker() {
		broker.destroy();
	}

	@AfterEach
	void close() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	private ConfigurableApplicationContext start(String connectString) {
		SpringApplication application = new SpringApplication(BillingConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		ConfigurableApplicationContext context = application.run("--distlock.zookeeper.connect-string=" + connectString,
				"--distlock.zookeeper.namespace=fenced-kafka-leader", "--distlock.zookeeper.session-timeout=30s",
				"--spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
				"--spring.kafka.producer.transaction-id-prefix=app-",
				"--spring.kafka.producer.properties.max.block.ms=20000", "--spring.main.banner-mode=off");
		this.contexts.add(context);
		return context;
	}

	@Test
	void oldLeaderPausedPastItsSessionCannotCommitAfterTheNewLeaderCommitted() throws Exception {
		try (TcpRelay relay = new TcpRelay(zookeeper.server().getPort())) {
			ConfigurableApplicationContext first = start(relay.getConnectString());
			await().atMost(WAIT).until(() -> first.getBean(Leadership.class).isLeader("billing"));
			ConfigurableApplicationContext second = start(zookeeper.connectString());

			CountDownLatch sent = new CountDownLatch(1);
			CountDownLatch resume = new CountDownLatch(1);
			long[] oldEpoch = new long[1];
			CompletableFuture<Long> oldLeader = CompletableFuture
				.supplyAsync(() -> first.getBean(Billing.class).closeInvoices(() -> {
					oldEpoch[0] = LockContext.current().fencingToken();
					sent.countDown();
					awaitQuietly(resume);
				}));
			assertThat(sent.await(20, TimeUnit.SECONDS)).isTrue();

			// The old leader is cut off and its session ends on the server: the other
			// instance leads with a larger epoch and commits its run, while the old one
			// still believes it leads.
			relay.pause();
			Faults.killSession(first.getBean(CuratorFramework.class), zookeeper.connectString());
			await().atMost(WAIT).until(() -> second.getBean(Leadership.class).isLeader("billing"));
			long newEpoch = second.getBean(Billing.class).closeInvoices(() -> {
			});
			assertThat(newEpoch).isGreaterThan(oldEpoch[0]);

			resume.countDown();
			assertThat(oldLeader).failsWithin(WAIT)
				.withThrowableOfType(ExecutionException.class)
				.havingCause()
				.isInstanceOfSatisfying(StaleFencingTokenException.class, (stale) -> {
					assertThat(stale.getPath()).isEqualTo(LockPath.of("billing"));
					assertThat(stale.getToken()).isEqualTo(oldEpoch[0]);
					assertThat(stale).hasMessageContaining("'billing'")
						.hasMessageContaining("distlock-leader/billing")
						.hasMessageContaining(Long.toString(oldEpoch[0]));
				});
			assertThat(committedValues()).containsExactly("run-" + newEpoch);
			relay.resume();
		}
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			if (!latch.await(60, TimeUnit.SECONDS)) {
				throw new IllegalStateException("not resumed");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static List<String> committedValues() {
		Map<String, Object> configs = new HashMap<>();
		configs.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString());
		configs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
		TopicPartition partition = new TopicPartition(TOPIC, 0);
		List<String> values = new ArrayList<>();
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(configs, new StringDeserializer(),
				new StringDeserializer())) {
			consumer.assign(List.of(partition));
			consumer.seekToBeginning(List.of(partition));
			// For a read_committed consumer the end offset is the last stable offset.
			long end = consumer.endOffsets(List.of(partition)).get(partition);
			while (consumer.position(partition) < end) {
				for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
					values.add(record.value());
				}
			}
		}
		return values;
	}

	static class Billing {

		private final KafkaTemplate<String, String> template;

		Billing(KafkaTemplate<String, String> template) {
			this.template = template;
		}

		@LeaderOnly(group = "billing", fenced = true, onNotLeader = OnNotLeader.THROW)
		public long closeInvoices(Runnable afterSend) {
			long epoch = LockContext.current().fencingToken();
			this.template.executeInTransaction((ops) -> {
				ops.send(TOPIC, "run-" + epoch).join();
				afterSend.run();
				return null;
			});
			return epoch;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DistlockAutoConfiguration.class, DistlockLeadershipAutoConfiguration.class,
			DistlockKafkaAutoConfiguration.class, KafkaAutoConfiguration.class, TransactionAutoConfiguration.class })
	static class BillingConfiguration {

		@Bean
		Billing billing(KafkaTemplate<String, String> template) {
			return new Billing(template);
		}

	}

}
