package io.github.distlock.autoconfigure.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.transaction.annotation.Transactional;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.kafka.KafkaFencing;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fenced Kafka writes through Boot's Kafka auto-configuration, on an embedded KRaft
 * broker and a real ZooKeeper: a {@code fenced = true} method sends through the
 * application's {@code KafkaTemplate}, on the lock's transactional producer.
 */
class DistlockKafkaAutoConfigurationTests {

	private static final String TOPIC = "orders";

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private static EmbeddedKafkaKraftBroker broker;

	private final ApplicationContextRunner contextRunner = DistlockContextRunners
		.applicationContextRunner(zookeeper, DistlockAutoConfiguration.class, DistlockKafkaAutoConfiguration.class,
				KafkaAutoConfiguration.class, TransactionAutoConfiguration.class)
		.withPropertyValues("spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
				"spring.kafka.producer.properties.max.block.ms=20000");

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

	@Test
	void fencedMethodsSendThroughTheLocksTransactionalProducer() {
		this.contextRunner.withPropertyValues("spring.kafka.producer.transaction-id-prefix=app-")
			.withUserConfiguration(OrdersConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(KafkaFencing.class);
				assertThat(AopUtils.isAopProxy(context.getBean(ProducerFactory.class))).isTrue();
				Orders orders = context.getBean(Orders.class);
				orders.publish("1", "in-template-transaction");
				orders.publishTransactional("2", "in-transactional-method");
				assertThat(committedValues()).contains("in-template-transaction", "in-transactional-method");
				assertThat(transactionalIds()).contains("distlock-mutex/orders/1", "distlock-mutex/orders/2");
			});
	}

	@Test
	void fencedMethodIsRefusedAtStartupWithoutATransactionalProducerFactory() {
		this.contextRunner.withUserConfiguration(OrdersConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(LockConfigurationException.class)
				.hasMessageContaining("Orders.publish(String, String)")
				.hasMessageContaining("fenced = true")
				.hasMessageContaining("spring.kafka.producer.transaction-id-prefix");
		});
	}

	@Test
	void producerFactoriesAreLeftAloneWhenDisabled() {
		this.contextRunner.withPropertyValues("distlock.kafka.enabled=false").run((context) -> {
			assertThat(context).doesNotHaveBean(KafkaFencing.class);
			assertThat(AopUtils.isAopProxy(context.getBean(ProducerFactory.class))).isFalse();
		});
	}

	@Test
	void runWithoutSpringKafkaShouldNotCreateTheFencing() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(ProducerFactory.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(KafkaFencing.class));
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
			long end = consumer.endOffsets(List.of(partition)).get(partition);
			while (consumer.position(partition) < end) {
				for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
					values.add(record.value());
				}
			}
		}
		return values;
	}

	private static List<String> transactionalIds() {
		return broker.doWithAdminFunction((admin) -> {
			try {
				return admin.listTransactions().all().get().stream().map(TransactionListing::transactionalId).toList();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class OrdersConfiguration {

		@Bean
		Orders orders(KafkaTemplate<String, String> template) {
			return new Orders(template);
		}

	}

	static class Orders {

		private final KafkaTemplate<String, String> template;

		Orders(KafkaTemplate<String, String> template) {
			this.template = template;
		}

		@DistributedLock(value = "orders/#{#id}", fenced = true)
		public void publish(String id, String value) {
			this.template.executeInTransaction((ops) -> ops.send(TOPIC, id, value));
		}

		@DistributedLock(value = "orders/#{#id}", fenced = true)
		@Transactional
		public void publishTransactional(String id, String value) {
			this.template.send(TOPIC, id, value);
		}

	}

}
