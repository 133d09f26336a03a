package io.github.distlock.autoconfigure.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.admin.TransactionListing;
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
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.transaction.KafkaTransactionManager;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.AbstractPlatformTransactionManager;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.DistlockFenceSchemaAutoConfiguration;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.StaleFencingTokenException;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fenced call with two transaction managers, a {@code DataSourceTransactionManager} and
 * a {@code KafkaTransactionManager}, as Spring for Apache Kafka suggests for database and
 * Kafka writes in one method: {@code @Transactional("kafkaTransactionManager")} on the
 * fenced method around a JDBC {@code @Transactional} method. Both sinks are fenced, each
 * by its own fence: the Kafka transaction runs on the lock's producer, the JDBC
 * transaction advances the lock's fence row. Two instances (Spring Boot applications)
 * share an H2 database and an embedded KRaft broker.
 */
class FencedKafkaAndJdbcTransactionsTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final String TOPIC = "orders";

	// Long sessions: the instance behind the paused relay must not notice the cut for
	// the length of the test.
	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension(NodeOptions.defaults())
		.withTickTime(Duration.ofSeconds(2));

	private static EmbeddedKafkaKraftBroker broker;

	private final String url = "jdbc:h2:mem:fenced-dual-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

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
		new JdbcTemplate(new DriverManagerDataSource(this.url, "sa", "")).execute("shutdown");
	}

	private ConfigurableApplicationContext start(String connectString, String... more) {
		SpringApplication application = new SpringApplication(OrdersConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		List<String> arguments = new ArrayList<>(List.of("--distlock.zookeeper.connect-string=" + connectString,
				"--distlock.zookeeper.namespace=fenced-dual", "--distlock.zookeeper.session-timeout=30s",
				"--spring.datasource.url=" + this.url,
				"--spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
				"--spring.kafka.producer.transaction-id-prefix=app-",
				"--spring.kafka.producer.properties.max.block.ms=20000", "--spring.main.banner-mode=off"));
		arguments.addAll(List.of(more));
		ConfigurableApplicationContext context = application.run(arguments.toArray(String[]::new));
		this.contexts.add(context);
		JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
		jdbc.execute("create table if not exists orders (id varchar(20), val varchar(20), token bigint)");
		return context;
	}

	@Test
	void rightfulHolderCommitsBothSinksThroughTheirFences() {
		commitsBothSinks(start(zookeeper.connectString()));
	}

	// The database's fence is not attached to the Kafka transaction manager's
	// transactions, which would otherwise refuse to commit them (they do not run on the
	// DataSource) once the manager synchronizes.
	@Test
	void rightfulHolderCommitsBothSinksWhenTheKafkaTransactionManagerSynchronizes() {
		commitsBothSinks(start(zookeeper.connectString(), "--orders.kafka-synchronization=true"));
	}

	private static void commitsBothSinks(ConfigurableApplicationContext context) {
		String id = UUID.randomUUID().toString().substring(0, 8);
		long token = context.getBean(Orders.class).place(id, "placed", () -> {
		});
		JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
		assertThat(jdbc.queryForList("select val from orders where id = ?", String.class, id))
			.containsExactly("placed");
		assertThat(jdbc.queryForObject("select token from distlock_fence where lock_path = ?", Long.class,
				"mutex/orders/" + id))
			.isEqualTo(token);
		assertThat(committedValues()).contains(id + ":placed");
		assertThat(transactionalIds()).contains("distlock-mutex/orders/" + id);
	}

	@Test
	void staleHolderCommitsNeitherRowNorRecord() throws Exception {
		try (TcpRelay relay = new TcpRelay(zookeeper.server().getPort())) {
			ConfigurableApplicationContext first = start(relay.getConnectString());
			ConfigurableApplicationContext second = start(zookeeper.connectString());
			String id = UUID.randomUUID().toString().substring(0, 8);
			CountDownLatch written = new CountDownLatch(1);
			CountDownLatch resume = new CountDownLatch(1);
			long[] oldToken = new long[1];
			CompletableFuture<Long> stale = CompletableFuture
				.supplyAsync(() -> first.getBean(Orders.class).place(id, "stale", () -> {
					oldToken[0] = LockContext.current().fencingToken();
					written.countDown();
					awaitQuietly(resume);
				}));
			assertThat(written.await(20, TimeUnit.SECONDS)).isTrue();

			// The first holder is cut off with both transactions open and its session
			// ends on the server; the second takes the lock and commits both sinks.
			relay.pause();
			Faults.killSession(first.getBean(CuratorFramework.class), zookeeper.connectString());
			long newToken = second.getBean(Orders.class).place(id, "fresh", () -> {
			});
			assertThat(newToken).isGreaterThan(oldToken[0]);

			resume.countDown();
			assertThat(stale).failsWithin(WAIT)
				.withThrowableOfType(ExecutionException.class)
				.havingCause()
				.isInstanceOfSatisfying(StaleFencingTokenException.class, (refused) -> {
					assertThat(refused.getPath()).isEqualTo(LockPath.of("orders/" + id));
					assertThat(refused.getToken()).isEqualTo(oldToken[0]);
				});
			JdbcTemplate jdbc = second.getBean(JdbcTemplate.class);
			assertThat(jdbc.queryForList("select val from orders where id = ?", String.class, id))
				.containsExactly("fresh");
			assertThat(committedValues()).contains(id + ":fresh").doesNotContain(id + ":stale");
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

	static class Orders {

		private final KafkaTemplate<String, String> template;

		private final OrderRows rows;

		Orders(KafkaTemplate<String, String> template, OrderRows rows) {
			this.template = template;
			this.rows = rows;
		}

		@DistributedLock(value = "orders/#{#id}", fenced = true)
		@Transactional("kafkaTransactionManager")
		public long place(String id, String value, Runnable beforeCommit) {
			long token = LockContext.current().fencingToken();
			this.template.send(TOPIC, id, id + ":" + value).join();
			this.rows.insert(id, value, token, beforeCommit);
			return token;
		}

	}

	static class OrderRows {

		private final JdbcTemplate jdbc;

		OrderRows(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@Transactional("transactionManager")
		public void insert(String id, String value, long token, Runnable beforeCommit) {
			this.jdbc.update("insert into orders (id, val, token) values (?, ?, ?)", id, value, token);
			beforeCommit.run();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DistlockAutoConfiguration.class, DistlockKafkaAutoConfiguration.class,
			KafkaAutoConfiguration.class, DataSourceAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
			TransactionAutoConfiguration.class, DistlockFenceSchemaAutoConfiguration.class })
	static class OrdersConfiguration {

		@Bean
		@Primary
		DataSourceTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		KafkaTransactionManager<?, ?> kafkaTransactionManager(ProducerFactory<?, ?> producerFactory,
				Environment environment) {
			KafkaTransactionManager<?, ?> manager = new KafkaTransactionManager<>(producerFactory);
			// Spring Kafka's default is no synchronization; an application may set one.
			if (environment.getProperty("orders.kafka-synchronization", Boolean.class, false)) {
				manager.setTransactionSynchronization(AbstractPlatformTransactionManager.SYNCHRONIZATION_ALWAYS);
			}
			return manager;
		}

		@Bean
		OrderRows orderRows(JdbcTemplate jdbc) {
			return new OrderRows(jdbc);
		}

		@Bean
		Orders orders(KafkaTemplate<String, String> template, OrderRows rows) {
			return new Orders(template, rows);
		}

	}

}
