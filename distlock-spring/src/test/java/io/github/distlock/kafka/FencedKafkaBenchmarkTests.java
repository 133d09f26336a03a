package io.github.distlock.kafka;

import java.time.Duration;
import java.util.Arrays;
import java.util.function.IntConsumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

import io.github.distlock.core.LockHandle;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.curator.GuardedWrites;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the fence costs, on the embedded broker and a local ZooKeeper: a Kafka transaction
 * of one record fenced by a lock (acquire, the lock's producer created and initialized,
 * the hold checked on the server twice, commit, close, release) against a plain
 * transactional one (Spring Kafka's cached producer) and against the lock alone. Opt-in,
 * prints its figures:
 * {@code ./mvnw -pl distlock-spring -am -Dsurefire.failIfNoSpecifiedTests=false test
 * -Dtest=FencedKafkaBenchmarkTests -Ddistlock.kafka.benchmark=true}.
 */
@EnabledIfSystemProperty(named = "distlock.kafka.benchmark", matches = "true")
class FencedKafkaBenchmarkTests {

	private static final int OPERATIONS = Integer.getInteger("distlock.kafka.benchmark.operations", 200);

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension(
			NodeOptions.defaults().withNamespace("kafka-benchmark"));

	@RegisterExtension
	static final KafkaTestBroker kafka = new KafkaTestBroker();

	@Test
	void fencedTransactionAgainstAPlainOne() {
		String topic = kafka.newTopic();
		CuratorLocks locks = zookeeper.newNode();
		KafkaFencing fencing = new KafkaFencing(new KafkaTransactionalIds(KafkaTransactionalIds.DEFAULT_PREFIX),
				new GuardedWrites(locks.client()), () -> true, Duration.ofSeconds(5));
		DefaultKafkaProducerFactory<String, String> factory = kafka.transactionalProducerFactory("plain-");
		try {
			KafkaTemplate<String, String> template = new KafkaTemplate<>(new FencedProducerFactory<>(factory, fencing));
			IntConsumer plain = (i) -> template.executeInTransaction((ops) -> ops.send(topic, "p" + i).join());
			IntConsumer lockOnly = (i) -> {
				try (LockHandle handle = locks.mutex("bench/" + (i % 8)).acquire(Duration.ofSeconds(10))) {
					assertThat(handle.isHeld()).isTrue();
				}
			};
			IntConsumer fenced = (i) -> {
				try (LockHandle handle = locks.mutex("bench/" + (i % 8)).acquire(Duration.ofSeconds(10))) {
					fencing.execute(handle,
							() -> template.executeInTransaction((ops) -> ops.send(topic, "f" + i).join()));
				}
			};
			IntConsumer fencedTen = (i) -> {
				try (LockHandle handle = locks.mutex("bench/" + (i % 8)).acquire(Duration.ofSeconds(10))) {
					fencing.execute(handle, () -> {
						for (int j = 0; j < 10; j++) {
							String value = "g" + i + "-" + j;
							template.executeInTransaction((ops) -> ops.send(topic, value).join());
						}
						return null;
					});
				}
			};
			// Warm up the broker's coordinators, the clients and the JIT.
			run(plain, 50);
			run(fenced, 50);
			System.out.printf("FencedKafkaBenchmark (%d operations, ms per operation):%n", OPERATIONS);
			print("plain transaction (cached producer)", run(plain, OPERATIONS));
			print("lock alone (acquire, release)", run(lockOnly, OPERATIONS));
			print("fenced transaction (lock, producer, commit)", run(fenced, OPERATIONS));
			print("fenced call of 10 transactions", run(fencedTen, OPERATIONS / 10));
		}
		finally {
			factory.destroy();
		}
	}

	private static long[] run(IntConsumer operation, int count) {
		long[] nanos = new long[count];
		for (int i = 0; i < count; i++) {
			long start = System.nanoTime();
			operation.accept(i);
			nanos[i] = System.nanoTime() - start;
		}
		return nanos;
	}

	private static void print(String name, long[] nanos) {
		long[] sorted = nanos.clone();
		Arrays.sort(sorted);
		double mean = Arrays.stream(nanos).average().orElse(0) / 1e6;
		System.out.printf("  %-45s mean %7.2f  median %7.2f  p90 %7.2f%n", name, mean, sorted[sorted.length / 2] / 1e6,
				sorted[(int) (sorted.length * 0.9)] / 1e6);
	}

}
