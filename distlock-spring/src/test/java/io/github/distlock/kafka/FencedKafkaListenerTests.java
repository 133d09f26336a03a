package io.github.distlock.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.ContainerProperties.EOSMode;
import org.springframework.kafka.listener.DefaultAfterRollbackProcessor;
import org.springframework.kafka.listener.KafkaMessageListenerContainer;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.FixedBackOff;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.StaleFencingTokenException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.curator.GuardedWrites;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A listener container's consume-process-produce transactions under a
 * {@link FencedKafkaTransactionManager}, on a real broker (embedded KRaft) and a real
 * ZooKeeper: the records the listener sends and the offsets the container commits go
 * through the lock's producer, together, only while the lock is held; a holder that lost
 * the lock without knowing it has its commit refused, and its input is delivered again.
 */
class FencedKafkaListenerTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	// Long sessions: a node cut off by a paused relay must not notice it for the length
	// of a test.
	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension(
			NodeOptions.defaults().withNamespace("kafka-listener").withSessionTimeout(Duration.ofSeconds(30)))
		.withTickTime(Duration.ofSeconds(2));

	@RegisterExtension
	static final KafkaTestBroker kafka = new KafkaTestBroker();

	private final List<AutoCloseable> resources = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
	}

	@Test
	void staleHoldersListenerCommitIsRefusedAndItsInputDeliveredAgain() throws Exception {
		String in = kafka.newTopic();
		String out = kafka.newTopic();
		String group = "pipeline-" + UUID.randomUUID();
		LockPath path = LockPath.of("pipeline/orders");
		try (TcpRelay relay = new TcpRelay(zookeeper.server().getPort())) {
			Node a = new Node(unaware(relay));
			Node b = new Node(zookeeper.newNode());
			CountDownLatch sent = new CountDownLatch(1);
			CountDownLatch resume = new CountDownLatch(1);
			AtomicInteger deliveries = new AtomicInteger();
			Queue<Exception> rollbacks = new ConcurrentLinkedQueue<>();
			KafkaTemplate<String, String> template = a.template;
			start(a, path, in, group, (record) -> {
				template.send(out, "a:" + record.value());
				if (deliveries.incrementAndGet() == 1) {
					sent.countDown();
					awaitLatch(resume);
				}
			}, rollbacks);
			plainSend(in, "r0");
			assertThat(sent.await(30, TimeUnit.SECONDS)).isTrue();

			// A is cut off and its session ends on the server, while A believes it holds
			// the lock and its listener's transaction is open.
			relay.pause();
			Faults.killSession(a.locks.client(), zookeeper.connectString());
			try (LockHandle heldByB = b.locks.mutex(path).acquire(Duration.ofSeconds(10))) {
				b.fencing.execute(heldByB, () -> b.template.executeInTransaction((ops) -> ops.send(out, "b-1").join()));
			}
			resume.countDown();
			await().atMost(WAIT).until(() -> !rollbacks.isEmpty());
			assertThat(rollbacks.peek()).satisfies((failure) -> assertThat(causes(failure))
				.anySatisfy((cause) -> assertThat(cause).isInstanceOfSatisfying(StaleFencingTokenException.class,
						(stale) -> assertThat(stale.getPath()).isEqualTo(path))));

			// A reconnects in a new session, takes the lock again, and the record it
			// could not commit is delivered and committed once.
			relay.resume();
			await().atMost(WAIT).until(() -> committedOffset(group, in) == 1L);
			assertThat(deliveries.get()).isGreaterThanOrEqualTo(2);
			assertThat(kafka.committedValues(out)).containsExactly("b-1", "a:r0");
		}
	}

	@Test
	void recordsAndOffsetsCommitTogetherThroughTheLocksProducer() throws Exception {
		String in = kafka.newTopic();
		String out = kafka.newTopic();
		String group = "pipeline-" + UUID.randomUUID();
		Node node = new Node(zookeeper.newNode());
		KafkaTemplate<String, String> template = node.template;
		Queue<Exception> rollbacks = new ConcurrentLinkedQueue<>();
		start(node, LockPath.of("pipeline/invoices"), in, group, (record) -> {
			template.send(out, "p:" + record.value());
			if (record.value().equals("poison")) {
				throw new IllegalStateException("refused " + record.value());
			}
		}, rollbacks);
		plainSend(in, "r0");
		plainSend(in, "poison");
		await().atMost(WAIT).until(() -> rollbacks.size() >= 1);
		await().atMost(WAIT).until(() -> committedOffset(group, in) == 1L);
		// The poison record's send rolled back with it, and its offset was not committed.
		assertThat(kafka.committedValues(out)).containsExactly("p:r0");
		assertThat(node.transactionalIds()).contains("distlock-mutex/pipeline/invoices");
	}

	@Test
	void producerFactoryThatIsNotFencedIsRefusedAndTheLockReleased() {
		Node node = new Node(zookeeper.newNode());
		DefaultKafkaProducerFactory<String, String> plain = kafka.transactionalProducerFactory("plain-");
		this.resources.add(plain::destroy);
		LockPath path = LockPath.of("pipeline/plain");
		FencedKafkaTransactionManager<String, String> transactionManager = new FencedKafkaTransactionManager<>(plain,
				node.fencing, node.locks.mutex(path), WAIT);
		assertThatExceptionOfType(LockConfigurationException.class)
			.isThrownBy(() -> new TransactionTemplate(transactionManager).executeWithoutResult((status) -> {
			}))
			.withMessageContaining("'pipeline/plain'")
			.withMessageContaining("FencedProducerFactory");
		try (LockHandle next = zookeeper.newNode().mutex(path).acquire(Duration.ofSeconds(10))) {
			assertThat(next.isHeld()).isTrue();
		}
	}

	private void start(Node node, LockPath path, String topic, String group, MessageListener<String, String> listener,
			Queue<Exception> rollbacks) {
		FencedKafkaTransactionManager<String, String> transactionManager = new FencedKafkaTransactionManager<>(
				node.producerFactory, node.fencing, node.locks.mutex(path), WAIT);
		ContainerProperties properties = new ContainerProperties(topic);
		properties.setGroupId(group);
		properties.setEosMode(EOSMode.V2);
		properties.setKafkaAwareTransactionManager(transactionManager);
		properties.setMessageListener(listener);
		Map<String, Object> configs = new HashMap<>();
		configs.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
		configs.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		configs.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		configs.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
		KafkaMessageListenerContainer<String, String> container = new KafkaMessageListenerContainer<>(
				new DefaultKafkaConsumerFactory<>(configs, new StringDeserializer(), new StringDeserializer()),
				properties);
		// Delivered again until committed: a delivery that fails (its lock not acquired
		// while the holder reconnects, say) is never skipped as exhausted.
		container.setAfterRollbackProcessor(
				new DefaultAfterRollbackProcessor<>(new FixedBackOff(50, FixedBackOff.UNLIMITED_ATTEMPTS)) {

					@Override
					public void process(List<ConsumerRecord<String, String>> records, Consumer<String, String> consumer,
							MessageListenerContainer container, Exception exception, boolean recoverable,
							EOSMode eosMode) {
						rollbacks.add(exception);
						super.process(records, consumer, container, exception, recoverable, eosMode);
					}

				});
		container.start();
		this.resources.add(container::stop);
	}

	private static List<Throwable> causes(Throwable failure) {
		List<Throwable> causes = new ArrayList<>();
		for (Throwable t = failure; t != null && !causes.contains(t); t = t.getCause()) {
			causes.add(t);
		}
		return causes;
	}

	private void plainSend(String topic, String value) {
		DefaultKafkaProducerFactory<String, String> factory = new DefaultKafkaProducerFactory<>(
				kafka.producerConfigs());
		try {
			new KafkaTemplate<>(factory).send(topic, value).join();
		}
		finally {
			factory.destroy();
		}
	}

	private static long committedOffset(String group, String topic) {
		Map<String, Object> configs = new HashMap<>();
		configs.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
		configs.put(ConsumerConfig.GROUP_ID_CONFIG, group);
		TopicPartition partition = new TopicPartition(topic, 0);
		try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(configs, new StringDeserializer(),
				new StringDeserializer())) {
			OffsetAndMetadata committed = consumer.committed(Set.of(partition)).get(partition);
			return (committed != null) ? committed.offset() : -1;
		}
	}

	// A node whose lock stays in doubt while its connection is cut: it goes on believing
	// it holds the lock, so only the broker can stop its commit.
	private static CuratorLocks unaware(TcpRelay relay) {
		return zookeeper.nodes()
			.node(relay.getConnectString(), zookeeper.options().withConnectionLossPolicy(ConnectionLossPolicy.LOST));
	}

	private static void awaitLatch(CountDownLatch latch) {
		try {
			assertThat(latch.await(60, TimeUnit.SECONDS)).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A process: a distlock node, its fencing, and a template on its fenced producer
	 * factory.
	 */
	private final class Node {

		final CuratorLocks locks;

		final KafkaFencing fencing;

		final FencedProducerFactory<String, String> producerFactory;

		final KafkaTemplate<String, String> template;

		Node(CuratorLocks locks) {
			this.locks = locks;
			CuratorFramework client = locks.client();
			this.fencing = new KafkaFencing(new KafkaTransactionalIds(KafkaTransactionalIds.DEFAULT_PREFIX),
					new GuardedWrites(client), () -> true, Duration.ofSeconds(5));
			DefaultKafkaProducerFactory<String, String> factory = kafka.transactionalProducerFactory("app-");
			FencedKafkaListenerTests.this.resources.add(factory::destroy);
			this.producerFactory = new FencedProducerFactory<>(factory, this.fencing);
			this.template = new KafkaTemplate<>(this.producerFactory);
		}

		List<String> transactionalIds() {
			return kafka.transactionalIds();
		}

	}

}
