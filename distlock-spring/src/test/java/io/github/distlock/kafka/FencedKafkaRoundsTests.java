package io.github.distlock.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.StaleFencingTokenException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.curator.GuardedWrites;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fence in the history checker's spirit, on a real broker and a real ZooKeeper: in
 * each round two or three holders on three nodes (each behind a relay) take one lock
 * after one another and write in a fenced Kafka transaction. A holder other than the
 * round's last may stall inside its open transaction: its relay is paused and its session
 * ended on the server, so it believes it holds the lock while the next holder takes it;
 * the stalled holders commit after the round, in a random order. A {@code read_committed}
 * consumer then reads the topic: a <b>stale commit accepted</b> is a record whose fencing
 * token is lower than one committed before it, or a stalled holder's commit that was not
 * refused; a <b>rightful commit refused</b> is a refused commit of a holder that did not
 * stall. Both must be 0. Short in every build;
 * {@code -Ddistlock.kafka.fenced.rounds=1000} (and
 * {@code -Ddistlock.kafka.fenced.seed=N}) for a long run.
 */
class FencedKafkaRoundsTests {

	private static final int ROUNDS = Integer.getInteger("distlock.kafka.fenced.rounds", 12);

	private static final long SEED = Long.getLong("distlock.kafka.fenced.seed", 7);

	// Long sessions: a node cut off by a paused relay must not notice it within a round.
	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension(
			NodeOptions.defaults().withNamespace("kafka-rounds").withSessionTimeout(Duration.ofSeconds(30)))
		.withTickTime(Duration.ofSeconds(2));

	@RegisterExtension
	static final KafkaTestBroker kafka = new KafkaTestBroker();

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final ExecutorService holders = Executors.newCachedThreadPool();

	@AfterEach
	void close() throws Exception {
		this.holders.shutdownNow();
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
	}

	@Test
	void noStaleCommitIsAcceptedAndNoRightfulCommitRefused() throws Exception {
		Random random = new Random(SEED);
		String topic = kafka.newTopic();
		List<Node> nodes = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			nodes.add(new Node("node" + i));
		}
		List<Attempt> attempts = new ArrayList<>();
		int stalls = 0;
		for (int round = 0; round < ROUNDS; round++) {
			String path = "rounds/lock" + (round % 3);
			int count = 2 + random.nextInt(2);
			List<Attempt> stalled = new ArrayList<>();
			List<Node> stalledNodes = new ArrayList<>();
			List<Node> available = new ArrayList<>(nodes);
			Collections.shuffle(available, random);
			for (int i = 0; i < count; i++) {
				Node node = available.get(i);
				boolean stall = i < count - 1 && random.nextBoolean();
				Attempt attempt = node.begin(topic, path, round + "/" + i, stall);
				attempts.add(attempt);
				if (stall) {
					// The holder is inside its open transaction; its session ends.
					node.relay.pause();
					Faults.killSession(node.locks.client(), zookeeper.connectString());
					stalled.add(attempt);
					stalledNodes.add(node);
					stalls++;
				}
				else {
					attempt.outcome.join();
				}
			}
			Collections.shuffle(stalled, random);
			for (Attempt attempt : stalled) {
				attempt.resume.countDown();
				attempt.outcome.join();
			}
			stalledNodes.forEach((node) -> node.relay.resume());
		}

		List<String> committed = kafka.committedValues(topic);
		long staleAccepted = 0;
		List<String> problems = new ArrayList<>();
		java.util.Map<String, Long> newest = new java.util.HashMap<>();
		for (String value : committed) {
			String[] parts = value.split(" ");
			long token = Long.parseLong(parts[2]);
			Long before = newest.get(parts[0]);
			if (before != null && token < before) {
				staleAccepted++;
				problems.add(value + " committed after token " + before);
			}
			newest.merge(parts[0], token, Math::max);
		}
		long rightfulRefused = 0;
		int refused = 0;
		int refusedByBroker = 0;
		for (Attempt attempt : attempts) {
			Throwable failure = attempt.outcome.join();
			if (failure != null) {
				refused++;
			}
			if (failure instanceof StaleFencingTokenException) {
				refusedByBroker++;
			}
			if (attempt.stall && failure == null) {
				staleAccepted++;
				problems.add(attempt.value + " committed after its session ended and a newer holder wrote");
			}
			if (!attempt.stall && failure != null) {
				rightfulRefused++;
				problems.add(attempt.value + " refused: " + failure);
			}
		}
		System.out.printf(
				"FencedKafkaRounds: seed %d, %d rounds, %d attempts, %d stalled, %d refused (%d by the broker's "
						+ "fence), %d committed records; stale commits accepted %d, rightful commits refused %d%n",
				SEED, ROUNDS, attempts.size(), stalls, refused, refusedByBroker, committed.size(), staleAccepted,
				rightfulRefused);
		assertThat(problems).isEmpty();
		assertThat(staleAccepted).isZero();
		assertThat(rightfulRefused).isZero();
		assertThat(committed).hasSize(attempts.size() - stalls);
	}

	/** One holder's attempt: its record, and how its commit ended (null: committed). */
	private record Attempt(String value, boolean stall, CountDownLatch resume, CompletableFuture<Throwable> outcome) {
	}

	/** A process behind a relay: a distlock node, its fencing and a template. */
	private final class Node {

		final TcpRelay relay;

		final CuratorLocks locks;

		final KafkaFencing fencing;

		final KafkaTemplate<String, String> template;

		final String name;

		Node(String name) {
			this.name = name;
			this.relay = new TcpRelay(zookeeper.server().getPort());
			FencedKafkaRoundsTests.this.closeables.add(this.relay);
			// The lock stays in doubt while the connection is cut: a stalled holder
			// believes it holds the lock, so only the broker can stop its commit.
			this.locks = zookeeper.nodes()
				.node(this.relay.getConnectString(),
						zookeeper.options().withConnectionLossPolicy(ConnectionLossPolicy.LOST));
			this.fencing = new KafkaFencing(new KafkaTransactionalIds(KafkaTransactionalIds.DEFAULT_PREFIX),
					new GuardedWrites(this.locks.client()), () -> true, Duration.ofSeconds(5));
			DefaultKafkaProducerFactory<String, String> factory = kafka.transactionalProducerFactory("app-");
			FencedKafkaRoundsTests.this.closeables.add(factory::destroy);
			this.template = new KafkaTemplate<>(new FencedProducerFactory<>(factory, this.fencing));
		}

		/**
		 * Take the lock and send one record in a fenced transaction; return once the
		 * record was sent, the commit still to come (at once unless the holder stalls).
		 */
		Attempt begin(String topic, String path, String id, boolean stall) throws InterruptedException {
			CountDownLatch sent = new CountDownLatch(1);
			CountDownLatch resume = new CountDownLatch(stall ? 1 : 0);
			String[] value = new String[1];
			CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
				LockHandle handle = this.locks.mutex(path).acquire(Duration.ofSeconds(60));
				try {
					value[0] = path + " " + this.name + " " + handle.fencingToken() + " " + id;
					this.fencing.execute(handle, () -> this.template.executeInTransaction((ops) -> {
						ops.send(topic, value[0]).join();
						sent.countDown();
						awaitQuietly(resume);
						return null;
					}));
					return null;
				}
				catch (LockLostException ex) {
					return ex;
				}
				finally {
					sent.countDown();
					handle.close();
				}
			}, FencedKafkaRoundsTests.this.holders);
			assertThat(sent.await(60, TimeUnit.SECONDS)).isTrue();
			return new Attempt((value[0] != null) ? value[0] : id, stall, resume, outcome);
		}

	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			assertThat(latch.await(120, TimeUnit.SECONDS)).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
