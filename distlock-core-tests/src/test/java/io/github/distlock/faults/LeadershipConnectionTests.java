package io.github.distlock.faults;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.curator.CuratorLeadership;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A leader's connection drops and returns within its session (the server restarts): the
 * lock connection-loss policy decides what the tenure does meanwhile.
 */
class LeadershipConnectionTests {

	// The member id every instance of this class takes by default.
	private static final String MEMBER = CuratorLeadership.defaultMemberId("faults");

	private static final Duration WAIT = Duration.ofSeconds(30);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults().closingQuietly();

	private Recorder leader(ConnectionLossPolicy policy) {
		CuratorLeadership leadership = this.zookeeper.nodes()
			.register(new CuratorLeadership(this.zookeeper.newNode(policy)));
		Recorder recorder = new Recorder(leadership);
		leadership.addListener(recorder);
		return recorder;
	}

	@Test
	void policySuspendedEndsTheTenureOnSuspensionOnceAndLeadsAgainWithTheSameNode() throws Exception {
		Recorder node = leader(ConnectionLossPolicy.SUSPENDED);
		long epoch = node.leadership.awaitLeadership("blip").get(20, TimeUnit.SECONDS);
		LockHandle tenure = node.leadership.tenure("blip").orElseThrow();
		this.zookeeper.server().stop();
		await().atMost(WAIT).until(() -> node.events.size() == 2);
		assertThat(node.leadership.isLeader("blip")).isFalse();
		assertThat(tenure.state()).isEqualTo(LockState.LOST);
		this.zookeeper.server().restart();
		long again = node.leadership.awaitLeadership("blip").get(20, TimeUnit.SECONDS);
		// The session survived: the same latch node leads again, as LeaderLatch does.
		assertThat(again).isEqualTo(epoch);
		await().atMost(WAIT).until(() -> node.events.size() == 3);
		assertThat(node.events).containsExactly(new LeadershipGrantedEvent("blip", epoch, MEMBER),
				new LeadershipRevokedEvent("blip", epoch, MEMBER), new LeadershipGrantedEvent("blip", epoch, MEMBER));
		assertThat(tenure.state()).isEqualTo(LockState.LOST);
	}

	@Test
	void policyLostKeepsTheTenureInDoubtWhileSuspendedAndGoesOnWhenTheConnectionReturns() throws Exception {
		Recorder node = leader(ConnectionLossPolicy.LOST);
		long epoch = node.leadership.awaitLeadership("doubt").get(20, TimeUnit.SECONDS);
		LockHandle tenure = node.leadership.tenure("doubt").orElseThrow();
		this.zookeeper.server().stop();
		await().atMost(WAIT).until(() -> tenure.state() == LockState.IN_DOUBT);
		assertThat(node.leadership.isLeader("doubt")).isFalse();
		assertThat(node.leadership.epoch("doubt")).isEmpty();
		this.zookeeper.server().restart();
		await().atMost(WAIT).until(() -> node.leadership.isLeader("doubt"));
		assertThat(tenure.state()).isEqualTo(LockState.HELD);
		assertThat(node.leadership.epoch("doubt")).hasValue(epoch);
		assertThat(node.events).containsExactly(new LeadershipGrantedEvent("doubt", epoch, MEMBER));
		tenure.close();
	}

	private static final class Recorder implements LeadershipListener {

		final CuratorLeadership leadership;

		final List<Object> events = new CopyOnWriteArrayList<>();

		Recorder(CuratorLeadership leadership) {
			this.leadership = leadership;
		}

		@Override
		public void granted(LeadershipGrantedEvent event) {
			this.events.add(event);
		}

		@Override
		public void revoked(LeadershipRevokedEvent event) {
			this.events.add(event);
		}

	}

}
