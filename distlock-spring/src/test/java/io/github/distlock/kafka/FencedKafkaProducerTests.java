package io.github.distlock.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockState;
import io.github.distlock.core.StaleFencingTokenException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.curator.GuardedWrites;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A lock holder's Kafka writes on a real broker (embedded KRaft) and a real ZooKeeper: a
 * holder that lost its lock without knowing it cannot commit after a newer holder's
 * producer initialized, and a {@code read_committed} consumer sees only the newer
 * holder's records.
 */
class FencedKafkaProducerTests {

	// Long sessions: a node cut off by a paused relay must not notice it for the length
	// of a test (it would, after two thirds of its session timeout).
	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension(
			NodeOptions.defaults().withNamespace("kafka").withSessionTimeout(Duration.ofSeconds(30)))
		.withTickTime(Duration.ofSeconds(2));

	@RegisterExtension
	static final KafkaTestBroker kafka = new KafkaTestBroker();

	private final List<DefaultKafkaProducerFactory<String, String>> factories = new ArrayList<>();

	@AfterEach
	void closeProducers() {
		this.factories.forEach(DefaultKafkaProducerFactory::destroy);
	}

	@Test
	void holderPausedPastItsSessionCannotCommitAfterTheNewHolder() throws Exception {
		String topic = kafka.newTopic();
		try (TcpRelay relay = new TcpRelay(zookeeper.server().getPort())) {
			Node a = new Node(unaware(relay));
			Node b = new Node(zookeeper.newNode());
			CountDownLatch sent = new CountDownLatch(1);
			CountDownLatch resume = new CountDownLatch(1);
			LockHandle heldByA = a.locks.mutex("orders/1").acquire(Duration.ofSeconds(10));
			CompletableFuture<Object> commitA = CompletableFuture
				.supplyAsync(() -> a.fencing.execute(heldByA, () -> a.template.executeInTransaction((ops) -> {
					ops.send(topic, "a-1").join();
					sent.countDown();
					await(resume);
					// The send fails when the broker answers; the commit says why.
					ops.send(topic, "a-2");
					return null;
				})));
			assertThat(sent.await(20, TimeUnit.SECONDS)).isTrue();

			// A is cut off and its session ends on the server: its lock node is gone,
			// and A still believes it may hold the lock.
			relay.pause();
			Faults.killSession(a.locks.client(), zookeeper.connectString());
			assertThat(heldByA.state()).isIn(LockState.HELD, LockState.IN_DOUBT);
			long tokenB;
			try (LockHandle heldByB = b.locks.mutex("orders/1").acquire(Duration.ofSeconds(10))) {
				tokenB = heldByB.fencingToken();
				b.fencing.execute(heldByB,
						() -> b.template.executeInTransaction((ops) -> ops.send(topic, "b-1").join()));
			}
			assertThat(tokenB).isGreaterThan(heldByA.fencingToken());

			assertThat(heldByA.state()).isIn(LockState.HELD, LockState.IN_DOUBT);
			resume.countDown();
			assertThat(commitA).failsWithin(Duration.ofSeconds(30))
				.withThrowableOfType(ExecutionException.class)
				.havingCause()
				.isInstanceOfSatisfying(StaleFencingTokenException.class, (stale) -> {
					assertThat(stale.getPath()).isEqualTo(LockPath.of("orders/1"));
					assertThat(stale.getToken()).isEqualTo(heldByA.fencingToken());
					assertThat(stale).hasMessageContaining("'orders/1'")
						.hasMessageContaining("distlock-mutex/orders/1")
						.hasMessageContaining(Long.toString(heldByA.fencingToken()));
				});
			assertThat(kafka.committedValues(topic)).containsExactly("b-1");
			relay.resume();
			// The lost hold is still its holder's to close.
			heldByA.close();
		}
	}

	@Test
	void staleHolderDoesNotFenceTheNewHolderBackByAskingAgain() throws Exception {
		String topic = kafka.newTopic();
		try (TcpRelay relay = new TcpRelay(zookeeper.server().getPort())) {
			Node a = new Node(unaware(relay));
			Node b = new Node(zookeeper.newNode());
			LockHandle heldByA = a.locks.mutex("orders/2").acquire(Duration.ofSeconds(10));
			CountDownLatch initialized = new CountDownLatch(1);
			CountDownLatch retry = new CountDownLatch(1);
			CompletableFuture<Void> secondTryOfA = CompletableFuture.runAsync(() -> a.fencing.execute(heldByA, () -> {
				a.template.executeInTransaction((ops) -> ops.send(topic, "a-1").join());
				initialized.countDown();
				await(retry);
				// The producer of A's call was fenced: asking again gives the same one.
				assertThatExceptionOfType(StaleFencingTokenException.class)
					.isThrownBy(() -> a.template.executeInTransaction((ops) -> ops.send(topic, "a-2")));
				return null;
			}));
			assertThat(initialized.await(20, TimeUnit.SECONDS)).isTrue();
			relay.pause();
			Faults.killSession(a.locks.client(), zookeeper.connectString());
			try (LockHandle heldByB = b.locks.mutex("orders/2").acquire(Duration.ofSeconds(10))) {
				b.fencing.execute(heldByB, () -> {
					b.template.executeInTransaction((ops) -> ops.send(topic, "b-1").join());
					retry.countDown();
					secondTryOfA.join();
					// A new call of A's lost hold checks the server first.
					relay.resume();
					assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> a.fencing.execute(heldByA,
							() -> a.template.executeInTransaction((ops) -> ops.send(topic, "a-3"))));
					return b.template.executeInTransaction((ops) -> ops.send(topic, "b-2").join());
				});
			}
			assertThat(kafka.committedValues(topic)).containsExactly("a-1", "b-1", "b-2");
			heldByA.close();
		}
	}

	@Test
	void successiveHoldersCommitThroughTheLocksTransactionalId() {
		String topic = kafka.newTopic();
		Node node = new Node(zookeeper.newNode());
		for (int i = 0; i < 3; i++) {
			String value = "v" + i;
			try (LockHandle handle = node.locks.mutex("orders/3").acquire(Duration.ofSeconds(10))) {
				node.fencing.execute(handle, () -> node.template.executeInTransaction((ops) -> {
					assertThat(ops.send(topic, value).join().getProducerRecord().value()).isEqualTo(value);
					return null;
				}));
			}
		}
		assertThat(kafka.committedValues(topic)).containsExactly("v0", "v1", "v2");
	}

	@Test
	void templateOutsideAFencedCallIsTheApplicationsOwn() {
		String topic = kafka.newTopic();
		Node node = new Node(zookeeper.newNode());
		node.template.executeInTransaction((ops) -> ops.send(topic, "plain").join());
		assertThat(kafka.committedValues(topic)).containsExactly("plain");
	}

	@Test
	void producerWithoutTransactionsIsRefusedInsideAFencedCall() {
		String topic = kafka.newTopic();
		Node node = new Node(zookeeper.newNode());
		DefaultKafkaProducerFactory<String, String> plain = new DefaultKafkaProducerFactory<>(kafka.producerConfigs());
		this.factories.add(plain);
		KafkaTemplate<String, String> template = new KafkaTemplate<>(new FencedProducerFactory<>(plain, node.fencing));
		try (LockHandle handle = node.locks.mutex("orders/4").acquire(Duration.ofSeconds(10))) {
			assertThatExceptionOfType(LockConfigurationException.class)
				.isThrownBy(() -> node.fencing.execute(handle, () -> template.send(topic, "x").join()))
				.withMessageContaining("'orders/4'")
				.withMessageContaining("without transactions");
		}
		assertThat(kafka.committedValues(topic)).isEmpty();
	}

	@Test
	void failedTransactionLeavesNothingVisibleAndTheNextCommits() {
		String topic = kafka.newTopic();
		Node node = new Node(zookeeper.newNode());
		try (LockHandle handle = node.locks.mutex("orders/5").acquire(Duration.ofSeconds(10))) {
			assertThatExceptionOfType(IllegalStateException.class)
				.isThrownBy(() -> node.fencing.execute(handle, () -> node.template.executeInTransaction((ops) -> {
					ops.send(topic, "rolled-back").join();
					throw new IllegalStateException("boom");
				})));
			node.fencing.execute(handle,
					() -> node.template.executeInTransaction((ops) -> ops.send(topic, "ok").join()));
		}
		assertThat(kafka.committedValues(topic)).containsExactly("ok");
	}

	// A node whose lock stays in doubt while its connection is cut: it goes on believing
	// it holds the lock, so only the broker can stop its commit.
	private static CuratorLocks unaware(TcpRelay relay) {
		return zookeeper.nodes()
			.node(relay.getConnectString(), zookeeper.options().withConnectionLossPolicy(ConnectionLossPolicy.LOST));
	}

	private static void await(CountDownLatch latch) {
		try {
			assertThat(latch.await(60, TimeUnit.SECONDS)).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A process: a distlock node, its fencing, and a template on its producer factory.
	 */
	private final class Node {

		final CuratorLocks locks;

		final KafkaFencing fencing;

		final KafkaTemplate<String, String> template;

		Node(CuratorLocks locks) {
			this.locks = locks;
			CuratorFramework client = locks.client();
			this.fencing = new KafkaFencing(new KafkaTransactionalIds(KafkaTransactionalIds.DEFAULT_PREFIX),
					new GuardedWrites(client), () -> true, Duration.ofSeconds(5));
			DefaultKafkaProducerFactory<String, String> factory = kafka.transactionalProducerFactory("app-");
			FencedKafkaProducerTests.this.factories.add(factory);
			this.template = new KafkaTemplate<>(new FencedProducerFactory<>(factory, this.fencing));
		}

	}

}
