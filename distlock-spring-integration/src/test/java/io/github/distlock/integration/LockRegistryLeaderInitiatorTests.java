package io.github.distlock.integration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.core.task.support.TaskExecutorAdapter;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.leader.event.LeaderEventPublisher;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Spring Integration's {@link LockRegistryLeaderInitiator} over a
 * {@link DistlockLockRegistry}, the contract of Spring Integration's own
 * {@code LockRegistryLeaderInitiatorTests} with a distributed registry: each initiator on
 * a node of its own (a client with its own session), one leader among them, hand-over
 * when the leader stops, yields or loses its session.
 */
class LockRegistryLeaderInitiatorTests {

	private static final String ROLE = "billing";

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	private final List<LockRegistryLeaderInitiator> initiators = new ArrayList<>();

	// The initiators' loops run here, so that they are known to have ended before the
	// nodes close.
	private final ExecutorService loops = Executors.newCachedThreadPool();

	@AfterEach
	void stopInitiators() throws InterruptedException {
		this.initiators.forEach(LockRegistryLeaderInitiator::stop);
		this.loops.shutdown();
		assertThat(this.loops.awaitTermination(10, TimeUnit.SECONDS)).as("the initiators' loops ended").isTrue();
	}

	@Test
	void startAndStop() throws Exception {
		Events events = new Events();
		LockRegistryLeaderInitiator initiator = initiator(this.zookeeper.newNode(), events);
		assertThat(initiator.getContext().isLeader()).isFalse();
		initiator.start();
		assertThat(initiator.isRunning()).isTrue();
		assertThat(events.granted.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(initiator.getContext().isLeader()).isTrue();
		await().during(Duration.ofMillis(1200))
			.atMost(Duration.ofSeconds(3))
			.until(() -> initiator.getContext().isLeader());
		initiator.stop();
		assertThat(events.revoked.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(initiator.getContext().isLeader()).isFalse();
	}

	@Test
	void oneOfThreeNodesLeadsAndAnotherTakesOverWhenTheLeaderStops() throws Exception {
		List<Events> events = List.of(new Events(), new Events(), new Events());
		List<LockRegistryLeaderInitiator> nodes = new ArrayList<>();
		for (Events each : events) {
			nodes.add(initiator(this.zookeeper.newNode(), each));
		}
		nodes.forEach(LockRegistryLeaderInitiator::start);
		await().atMost(Duration.ofSeconds(10)).until(() -> leaders(nodes) == 1);
		// Several heartbeats, and as many failed attempts of the others.
		await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(4)).until(() -> leaders(nodes) == 1);
		LockRegistryLeaderInitiator leader = nodes.stream().filter((n) -> n.getContext().isLeader()).findFirst().get();
		Events leaderEvents = events.get(nodes.indexOf(leader));
		leader.stop();
		assertThat(leaderEvents.revoked.await(10, TimeUnit.SECONDS)).isTrue();
		await().atMost(Duration.ofSeconds(5)).until(() -> leaders(nodes) == 1);
		assertThat(leader.getContext().isLeader()).isFalse();
		await().during(Duration.ofMillis(1000)).atMost(Duration.ofSeconds(3)).until(() -> leaders(nodes) == 1);
		LockRegistryLeaderInitiator next = nodes.stream().filter((n) -> n.getContext().isLeader()).findFirst().get();
		next.stop();
		LockRegistryLeaderInitiator last = nodes.stream().filter((n) -> n != leader && n != next).findFirst().get();
		await().atMost(Duration.ofSeconds(5)).until(() -> last.getContext().isLeader());
		assertThat(leaders(nodes)).isOne();
	}

	@Test
	void aLeaderThatYieldsHandsOverToTheOtherNode() throws Exception {
		Events firstEvents = new Events();
		Events secondEvents = new Events();
		LockRegistryLeaderInitiator first = initiator(this.zookeeper.newNode(), firstEvents);
		first.start();
		assertThat(firstEvents.granted.await(10, TimeUnit.SECONDS)).isTrue();
		LockRegistryLeaderInitiator second = initiator(this.zookeeper.newNode(), secondEvents);
		second.start();
		first.getContext().yield();
		assertThat(firstEvents.revoked.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(secondEvents.granted.await(10, TimeUnit.SECONDS)).isTrue();
		await().atMost(Duration.ofSeconds(5)).until(() -> second.getContext().isLeader());
		assertThat(first.getContext().isLeader()).isFalse();
	}

	@Test
	void failedAttemptsArePublishedWhileAnotherNodeLeads() throws Exception {
		Events leaderEvents = new Events();
		Events otherEvents = new Events();
		LockRegistryLeaderInitiator leader = initiator(this.zookeeper.newNode(), leaderEvents);
		leader.start();
		assertThat(leaderEvents.granted.await(10, TimeUnit.SECONDS)).isTrue();
		LockRegistryLeaderInitiator other = initiator(this.zookeeper.newNode(), otherEvents);
		other.setPublishFailedEvents(true);
		other.start();
		assertThat(otherEvents.failedToAcquire.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(other.getContext().isLeader()).isFalse();
		leader.stop();
		assertThat(otherEvents.granted.await(10, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aLeaderWhoseSessionEndsIsRevokedAndAnotherNodeLeadsWithinTheSessionTimeout() throws Exception {
		Events firstEvents = new Events();
		Events secondEvents = new Events();
		CuratorLocks firstNode = this.zookeeper.newNode();
		LockRegistryLeaderInitiator first = initiator(firstNode, firstEvents);
		first.start();
		assertThat(firstEvents.granted.await(10, TimeUnit.SECONDS)).isTrue();
		LockRegistryLeaderInitiator second = initiator(this.zookeeper.newNode(), secondEvents);
		second.start();
		Faults.killSession(firstNode.client());
		long killed = System.nanoTime();
		assertThat(secondEvents.granted.await(10, TimeUnit.SECONDS)).isTrue();
		assertThat(Duration.ofNanos(System.nanoTime() - killed)).isLessThan(this.zookeeper.options().sessionTimeout());
		assertThat(firstEvents.revoked.await(10, TimeUnit.SECONDS)).as("the old leader learns it lost").isTrue();
		await().atMost(Duration.ofSeconds(5)).until(() -> !first.getContext().isLeader());
		await().during(Duration.ofMillis(1000))
			.atMost(Duration.ofSeconds(3))
			.until(() -> second.getContext().isLeader() && !first.getContext().isLeader());
	}

	private LockRegistryLeaderInitiator initiator(CuratorLocks node, Events events) {
		LockRegistryLeaderInitiator initiator = new LockRegistryLeaderInitiator(new DistlockLockRegistry(node),
				new DefaultCandidate("node-" + this.initiators.size(), ROLE));
		initiator.setLeaderEventPublisher(events);
		initiator.setHeartBeatMillis(200);
		initiator.setTaskExecutor(new TaskExecutorAdapter(this.loops));
		this.initiators.add(initiator);
		return initiator;
	}

	private static long leaders(List<LockRegistryLeaderInitiator> nodes) {
		return nodes.stream().filter((node) -> node.getContext().isLeader()).count();
	}

	/** The events of one initiator. */
	private static final class Events implements LeaderEventPublisher {

		final CountDownLatch granted = new CountDownLatch(1);

		final CountDownLatch revoked = new CountDownLatch(1);

		final CountDownLatch failedToAcquire = new CountDownLatch(1);

		@Override
		public void publishOnGranted(Object source, Context context, String role) {
			this.granted.countDown();
		}

		@Override
		public void publishOnRevoked(Object source, Context context, String role) {
			this.revoked.countDown();
		}

		@Override
		public void publishOnFailedToAcquire(Object source, Context context, String role) {
			this.failedToAcquire.countDown();
		}

	}

}
