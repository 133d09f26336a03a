package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link PreferredLeaders}: a leader that is not preferred hands its tenure to a
 * preferred member once that member has kept one latch node for the delay, with
 * {@code transferTo}'s hand-off (no overlap, epochs grow); a member that leaves and joins
 * again starts its delay again; a preferred leader never hands off to another preferred
 * member; a raw {@code LeaderLatch} keeps its place and sees no marker in the latch
 * directory.
 */
class PreferredLeadersTests {

	private static final Duration WITHIN = Duration.ofSeconds(30);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final List<Term> tenures = new CopyOnWriteArrayList<>();

	private final List<LeaderLatch> latches = new ArrayList<>();

	@AfterEach
	void closeLatches() throws Exception {
		for (LeaderLatch latch : this.latches) {
			latch.close();
		}
	}

	@Test
	void aLeaderNotPreferredHandsOverToAPreferredMemberAfterTheDelay() throws Exception {
		Duration delay = Duration.ofSeconds(4);
		CuratorLeadership a = member("a", false, delay);
		long first = a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		CuratorLeadership b = member("b", false, delay);
		b.join("jobs");
		CuratorLeadership c = member("c", true, delay);
		long joined = System.nanoTime();
		c.join("jobs");
		awaitMembers(a, "a", "b", "c");

		long epoch = c.awaitLeadership("jobs").get(30, TimeUnit.SECONDS);

		assertThat(epoch).isGreaterThan(first);
		awaitMembers(c, "c", "b", "a");
		await().atMost(WITHIN).until(() -> this.tenures.size() == 2 && this.tenures.get(0).revoked != 0);
		// Not before the delay: the leader saw c's node after c joined at the earliest.
		assertThat(this.tenures.get(0).revoked - joined).isGreaterThanOrEqualTo(delay.toNanos());
		assertTenuresNeverOverlap();
		assertThat(this.tenures).extracting(Term::member).containsExactly("a", "c");
		// The marker is outside the latch directory: only latch nodes there.
		assertThat(this.zookeeper.newClient().getChildren().forPath("/leader/jobs"))
			.allMatch((name) -> name.contains("latch-"));
	}

	@Test
	void aPreferredMemberThatLeavesBeforeTheDelayCausesNoHandOffAndStartsItsDelayAgain() throws Exception {
		Duration delay = Duration.ofSeconds(6);
		CuratorLeadership a = member("a", false, delay);
		a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		CuratorLeadership b = member("b", true, delay);
		long joined = System.nanoTime();
		b.join("jobs");
		awaitMembers(a, "a", "b");
		// Two thirds of the delay with its first node, then b flaps.
		long flap = joined + delay.multipliedBy(2).dividedBy(3).toNanos();
		await().atMost(delay).until(() -> System.nanoTime() >= flap);
		b.leave("jobs").get(20, TimeUnit.SECONDS);
		awaitMembers(a, "a");
		long rejoined = System.nanoTime();
		b.join("jobs");
		awaitMembers(a, "a", "b");

		b.awaitLeadership("jobs").get(30, TimeUnit.SECONDS);
		await().atMost(WITHIN).until(() -> this.tenures.size() == 2 && this.tenures.get(0).revoked != 0);
		assertThat(this.tenures).extracting(Term::member).containsExactly("a", "b");
		// Had the delay run from b's first node, a would have handed over a third of it
		// after the flap: it ran from b's second node.
		assertThat(this.tenures.get(0).revoked - rejoined).isGreaterThanOrEqualTo(delay.toNanos());
	}

	@Test
	void aPreferredMemberThatLeftIsNotHandedTo() throws Exception {
		Duration delay = Duration.ofSeconds(2);
		CuratorLeadership a = member("a", false, delay);
		a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		CuratorLeadership b = member("b", true, delay);
		b.join("jobs");
		awaitMembers(a, "a", "b");
		b.leave("jobs").get(20, TimeUnit.SECONDS);

		// Its marker stays while its session lives; its latch node does not.
		await().during(delay.multipliedBy(2)).atMost(delay.multipliedBy(3)).until(() -> a.isLeader("jobs"));
		assertThat(this.zookeeper.newClient().getChildren().forPath("/leader-preferred/jobs")).containsExactly("b");
		assertThat(this.tenures).extracting(Term::member).containsExactly("a");
	}

	@Test
	void aPreferredMemberThatJoinsWhileDrainingIsHandedToOnceTheDrainEnds() throws Exception {
		Duration delay = Duration.ofSeconds(1);
		CuratorLeadership a = member("a", false, delay);
		a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		CuratorLocks locks = this.zookeeper.newNode();
		CuratorLeadership b = member(locks, "b", true, delay);
		locks.admin().drain(Duration.ZERO);
		b.join("jobs");
		// Marked, but no live member while it drains: not handed to.
		await().atMost(WITHIN)
			.until(() -> this.zookeeper.newClient().checkExists().forPath("/leader-preferred/jobs/b") != null);
		await().during(delay.multipliedBy(2)).atMost(delay.multipliedBy(4)).until(() -> a.isLeader("jobs"));
		locks.admin().undrain();
		b.awaitLeadership("jobs").get(30, TimeUnit.SECONDS);
		assertThat(this.tenures).extracting(Term::member).containsExactly("a", "b");
	}

	@Test
	void twoPreferredMembersDoNotTradeTheTenure() throws Exception {
		Duration delay = Duration.ofSeconds(1);
		CuratorLeadership a = member("a", false, delay);
		a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		CuratorLeadership b = member("b", true, delay);
		b.join("jobs");
		CuratorLeadership c = member("c", true, delay);
		c.join("jobs");
		awaitMembers(a, "a", "b", "c");

		b.awaitLeadership("jobs").get(30, TimeUnit.SECONDS);

		await().during(delay.multipliedBy(4)).atMost(delay.multipliedBy(6)).until(() -> b.isLeader("jobs"));
		awaitMembers(b, "b", "c", "a");
		assertThat(this.tenures).extracting(Term::member).containsExactly("a", "b");
		assertThat(c.isLeader("jobs")).isFalse();
	}

	@Test
	void aRawLatchBetweenKeepsItsPlaceAndTheLeaderLeadsOn() throws Exception {
		Duration delay = Duration.ofSeconds(1);
		CuratorLeadership a = member("a", false, delay);
		long epoch = a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		CuratorLeadership c = member("c", false, delay);
		c.join("jobs");
		awaitMembers(a, "a", "c");
		LeaderLatch raw = rawLatch("raw");
		awaitMembers(a, "a", "c", "raw");
		String rawNode = a.inspect("jobs").participants().get(2).name();
		CuratorLeadership b = member("b", true, delay);
		b.join("jobs");

		// The hand-off began: c moved behind b; the raw latch stays, so it fails.
		awaitMembers(a, "a", "raw", "b", "c");
		await().during(HandOff.MOVE_WAIT.plusSeconds(2))
			.atMost(HandOff.MOVE_WAIT.plusSeconds(10))
			.until(() -> a.isLeader("jobs"));

		assertThat(a.epoch("jobs")).hasValue(epoch);
		assertThat(raw.hasLeadership()).isFalse();
		List<LockParticipant> queue = a.inspect("jobs").participants();
		assertThat(queue).extracting(LockParticipant::memberId).containsExactly("a", "raw", "b", "c");
		assertThat(queue.get(1).name()).isEqualTo(rawNode);
		assertThat(raw.getParticipants()).extracting((participant) -> participant.getId())
			.containsExactly("a", "raw", "b", "c");
		assertThat(this.tenures).extracting(Term::member).containsExactly("a");
	}

	@Test
	void aPreferredMemberIsMarkedAgainInANewSession() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		CuratorLeadership b = this.zookeeper.nodes().register(new CuratorLeadership(locks, "b"));
		b.preferred().setPreferred(true);
		b.join("jobs");
		CuratorFramework reader = this.zookeeper.newClient();
		await().atMost(WITHIN)
			.ignoreExceptions()
			.until(() -> reader.getChildren().forPath("/leader-preferred/jobs").equals(List.of("b")));
		long session = reader.checkExists().forPath("/leader-preferred/jobs/b").getEphemeralOwner();

		Faults.expireSession(locks.client());

		await().atMost(WITHIN).ignoreExceptions().until(() -> {
			long owner = reader.checkExists().forPath("/leader-preferred/jobs/b").getEphemeralOwner();
			return owner != session && owner != 0;
		});
	}

	private CuratorLeadership member(String id, boolean preferred, Duration delay) {
		return member(this.zookeeper.newNode(), id, preferred, delay);
	}

	private CuratorLeadership member(CuratorLocks locks, String id, boolean preferred, Duration delay) {
		CuratorLeadership leadership = this.zookeeper.nodes().register(new CuratorLeadership(locks, id));
		leadership.preferred().setPreferred(preferred);
		leadership.preferred().setDelay(delay);
		leadership.addListener(new LeadershipListener() {

			@Override
			public void granted(LeadershipGrantedEvent event) {
				PreferredLeadersTests.this.tenures.add(new Term(event.memberId(), event.epoch(), System.nanoTime()));
			}

			@Override
			public void revoked(LeadershipRevokedEvent event) {
				long now = System.nanoTime();
				for (Term term : PreferredLeadersTests.this.tenures) {
					if (term.member.equals(event.memberId()) && term.epoch == event.epoch()) {
						term.revoked = now;
					}
				}
			}

		});
		return leadership;
	}

	private LeaderLatch rawLatch(String id) throws Exception {
		LeaderLatch latch = new LeaderLatch(this.zookeeper.newClient(), "/leader/jobs", id);
		this.latches.add(latch);
		latch.start();
		return latch;
	}

	private void awaitMembers(CuratorLeadership reader, String... ids) {
		await().atMost(WITHIN).ignoreExceptions().until(() -> reader.inspect("jobs").memberIds().equals(List.of(ids)));
	}

	private void assertTenuresNeverOverlap() {
		List<Term> sorted = new ArrayList<>(this.tenures);
		sorted.sort(Comparator.comparingLong((Term term) -> term.granted));
		for (int i = 1; i < sorted.size(); i++) {
			Term before = sorted.get(i - 1);
			Term after = sorted.get(i);
			assertThat(before.revoked).as("end of %s before %s", before, after).isNotZero();
			assertThat(before.revoked).as("end of %s before %s", before, after).isLessThan(after.granted);
			assertThat(after.epoch).as("epoch of %s after %s", after, before).isGreaterThan(before.epoch);
		}
	}

	/** One tenure as the member's events told it, on System.nanoTime. */
	static final class Term {

		final String member;

		final long epoch;

		final long granted;

		volatile long revoked;

		Term(String member, long epoch, long granted) {
			this.member = member;
			this.epoch = epoch;
			this.granted = granted;
		}

		String member() {
			return this.member;
		}

		@Override
		public String toString() {
			return this.member + " (epoch " + this.epoch + ")";
		}

	}

}
