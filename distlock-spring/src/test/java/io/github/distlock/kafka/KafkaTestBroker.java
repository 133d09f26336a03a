package io.github.distlock.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * One embedded KRaft broker for a test class, with a transaction state log that one
 * broker can serve and short client timeouts; topics of one partition, so that the order
 * a consumer reads is the order the broker wrote.
 */
public final class KafkaTestBroker implements BeforeAllCallback, AfterAllCallback {

	private EmbeddedKafkaKraftBroker broker;

	@Override
	public void beforeAll(ExtensionContext context) {
		this.broker = new EmbeddedKafkaKraftBroker(1, 1);
		this.broker.brokerProperties(Map.of("transaction.state.log.replication.factor", "1",
				"transaction.state.log.min.isr", "1", "transaction.state.log.num.partitions", "1",
				"offsets.topic.num.partitions", "1", "group.initial.rebalance.delay.ms", "0"));
		this.broker.afterPropertiesSet();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		if (this.broker != null) {
			this.broker.destroy();
		}
	}

	/** The broker's address. */
	public String bootstrapServers() {
		return this.broker.getBrokersAsString();
	}

	/**
	 * A new topic of one partition.
	 * @return its name
	 */
	public String newTopic() {
		String topic = "t-" + UUID.randomUUID();
		this.broker.addTopics(topic);
		return topic;
	}

	/** Configuration of a producer with short timeouts. */
	public Map<String, Object> producerConfigs() {
		Map<String, Object> configs = new HashMap<>();
		configs.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
		configs.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
		configs.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
		configs.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);
		configs.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 20_000);
		configs.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
		configs.put(ProducerConfig.LINGER_MS_CONFIG, 0);
		return configs;
	}

	/**
	 * A transactional producer factory, as the application would configure it.
	 * @param transactionIdPrefix prefix of the application's own transactional ids
	 */
	public DefaultKafkaProducerFactory<String, String> transactionalProducerFactory(String transactionIdPrefix) {
		DefaultKafkaProducerFactory<String, String> factory = new DefaultKafkaProducerFactory<>(producerConfigs());
		factory.setTransactionIdPrefix(transactionIdPrefix);
		return factory;
	}

	/**
	 * The values a {@code read_committed} consumer reads from the start of a topic to its
	 * last stable offset: every committed record, none of an aborted or open transaction.
	 * @param topic the topic, of one partition
	 * @return the values, in the topic's order
	 */
	public List<String> committedValues(String topic) {
		Map<String, Object> configs = new HashMap<>();
		configs.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
		configs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
		configs.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		TopicPartition partition = new TopicPartition(topic, 0);
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

	/**
	 * The transactional ids the broker knows.
	 * @return the ids
	 */
	public List<String> transactionalIds() {
		return this.broker.doWithAdminFunction((admin) -> {
			try {
				return admin.listTransactions().all().get().stream().map(TransactionListing::transactionalId).toList();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	/**
	 * The last stable offset of a topic's partition and its end: equal when no
	 * transaction is open on it.
	 * @param topic the topic, of one partition
	 * @return the last stable offset and the end offset
	 */
	public long[] stableAndEndOffsets(String topic) {
		Map<String, Object> configs = new HashMap<>();
		configs.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
		TopicPartition partition = new TopicPartition(topic, 0);
		long[] offsets = new long[2];
		configs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(configs, new StringDeserializer(),
				new StringDeserializer())) {
			offsets[0] = consumer.endOffsets(List.of(partition)).get(partition);
		}
		configs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_UNCOMMITTED.toString());
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(configs, new StringDeserializer(),
				new StringDeserializer())) {
			offsets[1] = consumer.endOffsets(List.of(partition)).get(partition);
		}
		return offsets;
	}

}
