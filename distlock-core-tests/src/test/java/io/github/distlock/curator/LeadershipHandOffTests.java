package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.retry.RetryNTimes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * {@link CuratorLeadership#transferTo}: three distlock members (three clients, as three
 * instances) and a raw Curator {@code LeaderLatch} in one group. The leader hands its
 * tenure to a member further back, the distlock members between queue again behind it,
 * the raw latch keeps its place; a raw latch between fails the transfer and the leader
 * leads on. Every member records its tenures from its events: they never overlap, and
 * their epochs grow.
 */
class LeadershipHandOffTests {

	private static final Duration WITHIN = Duration.ofSeconds(20);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	// Every tenure of every member, as its events told them.
	private final List<Term> tenures = new CopyOnWriteArrayList<>();

	private final List<LeaderLatch> latches = new ArrayList<>();

	@AfterEach
	void closeLatches() throws Exception {
		for (LeaderLatch latch : this.latches) {
			latch.close();
		}
	}

	@Test
	void theLeaderHandsOverToAMemberFurtherBackAndTheMembersBetweenQueueBehindIt() throws Exception {
		CuratorLeadership a = member("a");
		long first = a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		CuratorLeadership b = member("b");
		b.join("jobs");
		awaitMembers(a, "a", "b");
		CuratorLeadership c = member("c");
		c.join("jobs");
		awaitMembers(a, "a", "b", "c");
		LeaderLatch raw = rawLatch("raw");
		awaitMembers(a, "a", "b", "c", "raw");

		long epoch = a.transferTo("jobs", "c").get(20, TimeUnit.SECONDS);

		assertThat(epoch).isGreaterThan(first);
		await().atMost(WITHIN).until(() -> c.isLeader("jobs"));
		assertThat(c.epoch("jobs")).hasValue(epoch);
		assertThat(a.isLeader("jobs")).isFalse();
		assertThat(b.isLeader("jobs")).isFalse();
		assertThat(raw.hasLeadership()).isFalse();
		// b queued behind c before a gave up its node; the raw latch kept its place.
		awaitMembers(c, "c", "raw", "b", "a");
		assertThat(a.groups()).containsExactly("jobs");
		await().atMost(WITHIN).until(() -> this.tenures.size() == 2 && this.tenures.get(0).revoked != 0);
		assertTenuresNeverOverlap();
		assertThat(this.tenures).extracting(Term::member).containsExactly("a", "c");
	}

	@Test
	void handingOverToTheNextMemberAndBackAgainEpochsGrow() throws Exception {
		CuratorLeadership a = member("a");
		a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		CuratorLeadership b = member("b");
		b.join("jobs");
		awaitMembers(a, "a", "b");
		CuratorLeadership c = member("c");
		c.join("jobs");
		awaitMembers(a, "a", "b", "c");

		// Nobody between: the leader's node goes at once.
		long toB = a.transferTo("jobs", "b").get(20, TimeUnit.SECONDS);
		awaitMembers(a, "b", "c", "a");
		await().atMost(WITHIN).until(() -> b.isLeader("jobs"));
		long toA = b.transferTo("jobs", "a").get(20, TimeUnit.SECONDS);

		assertThat(toA).isGreaterThan(toB);
		await().atMost(WITHIN).until(() -> a.isLeader("jobs"));
		// c moved behind a, then b queued again at the end.
		awaitMembers(a, "a", "c", "b");
		await().atMost(WITHIN).until(() -> this.tenures.size() == 3 && this.tenures.get(1).revoked != 0);
		assertTenuresNeverOverlap();
		assertThat(this.tenures).extracting(Term::member).containsExactly("a", "b", "a");
	}

	@Test
	void theOldLeadersCallsDrainBeforeTheTargetLeads() throws Exception {
		CuratorLeadership a = member("a");
		a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		LockHandle call = a.tenure("jobs").orElseThrow();
		CuratorLeadership b = member("b");
		b.join("jobs");
		awaitMembers(a, "a", "b");
		CuratorLeadership c = member("c");
		c.join("jobs");
		awaitMembers(a, "a", "b", "c");

		CompletableFuture<Long> transfer = a.transferTo("jobs", "c");
		// b moved: the leader drains, its node still first, nobody else leads.
		awaitMembers(a, "a", "c", "b");
		await().atMost(WITHIN).until(() -> !a.isLeader("jobs"));
		assertThat(call.state()).isEqualTo(LockState.HELD);
		assertThat(transfer).isNotDone();
		assertThat(c.isLeader("jobs")).isFalse();

		call.close();
		long epoch = transfer.get(20, TimeUnit.SECONDS);
		assertThat(call.state()).isEqualTo(LockState.LOST);
		await().atMost(WITHIN).until(() -> c.isLeader("jobs"));
		assertThat(c.epoch("jobs")).hasValue(epoch);
		await().atMost(WITHIN).until(() -> this.tenures.size() == 2 && this.tenures.get(0).revoked != 0);
		assertTenuresNeverOverlap();
	}

	@Test
	void aRawLatchBetweenFailsTheTransferAndTheLeaderLeadsOn() throws Exception {
		CuratorLeadership a = member("a");
		long epoch = a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		CuratorLeadership b = member("b");
		b.join("jobs");
		awaitMembers(a, "a", "b");
		LeaderLatch raw = rawLatch("raw");
		awaitMembers(a, "a", "b", "raw");
		CuratorLeadership c = member("c");
		c.join("jobs");
		awaitMembers(a, "a", "b", "raw", "c");

		CompletableFuture<Long> transfer = a.transferTo("jobs", "c");

		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> transfer.get(30, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOf(IllegalStateException.class)
			.withMessageContaining("'jobs'")
			.withMessageContaining("'c'")
			.withMessageContaining("[raw]");
		assertThat(a.isLeader("jobs")).isTrue();
		assertThat(a.epoch("jobs")).hasValue(epoch);
		assertThat(raw.hasLeadership()).isFalse();
		// The raw latch kept its place; b had moved behind c.
		awaitMembers(a, "a", "raw", "c", "b");
		assertThat(this.tenures).extracting(Term::member).containsExactly("a");
		assertThat(this.tenures.get(0).revoked).isZero();
		// The request is cleared: a later transfer to the next member works.
		assertThat(a.transferTo("jobs", "raw").get(20, TimeUnit.SECONDS)).isGreaterThan(epoch);
		assertThat(raw.await(20, TimeUnit.SECONDS)).isTrue();
		await().atMost(WITHIN).until(() -> this.tenures.get(0).revoked != 0);
		assertTenuresNeverOverlap();
	}

	@Test
	void aTransferThatCannotBeDoneIsRefusedAndChangesNothing() throws Exception {
		CuratorLeadership a = member("a");
		long epoch = a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		CuratorLeadership b = member("b");
		b.join("jobs");
		awaitMembers(a, "a", "b");

		assertThatIllegalArgumentException().isThrownBy(() -> a.transferTo("jobs", "nobody"))
			.withMessageContaining("'jobs'")
			.withMessageContaining("'nobody'")
			.withMessageContaining("not a live member")
			.withMessageContaining("[a, b]");
		assertThatIllegalStateException().isThrownBy(() -> b.transferTo("jobs", "b"))
			.withMessageContaining("'jobs'")
			.withMessageContaining("'b'")
			.withMessageContaining("does not lead");
		assertThatIllegalStateException().isThrownBy(() -> b.transferTo("other", "a")).withMessageContaining("'other'");
		assertThat(a.transferTo("jobs", "a").get(1, TimeUnit.SECONDS)).isEqualTo(epoch);

		assertThat(a.isLeader("jobs")).isTrue();
		assertThat(a.epoch("jobs")).hasValue(epoch);
		awaitMembers(a, "a", "b");
		assertThat(this.tenures).extracting(Term::member).containsExactly("a");
	}

	@Test
	void aTransferWhoseGroupCannotBeReadFailsItsFutureAndIsNotThrown() throws Exception {
		TcpRelay relay = this.zookeeper.nodes().register(new TcpRelay(this.zookeeper.server().getPort()));
		CuratorFramework client = RelayedClients.start(this.zookeeper, relay, new RetryNTimes(0, 0));
		CuratorLeadership a = this.zookeeper.nodes()
			.register(new CuratorLeadership(
					this.zookeeper.nodes().register(this.zookeeper.options().createLocks(client)), "a"));
		a.awaitLeadership("jobs").get(20, TimeUnit.SECONDS);
		CuratorLeadership b = member("b");
		b.join("jobs");
		awaitMembers(a, "a", "b");
		// The connection stalls before the leader hears of it: it still leads, and its
		// read of the group fails once the client gives the connection up.
		relay.pause();
		CompletableFuture<Long> transfer = a.transferTo("jobs", "b");
		assertThat(transfer).failsWithin(WITHIN)
			.withThrowableOfType(ExecutionException.class)
			.withCauseInstanceOf(LockAcquisitionException.class)
			.withMessageContaining("jobs");
		relay.resume();
	}

	private CuratorLeadership member(String id) {
		CuratorLeadership leadership = this.zookeeper.nodes()
			.register(new CuratorLeadership(this.zookeeper.newNode(), id));
		leadership.addListener(new LeadershipListener() {

			@Override
			public void granted(LeadershipGrantedEvent event) {
				LeadershipHandOffTests.this.tenures.add(new Term(event.memberId(), event.epoch(), System.nanoTime()));
			}

			@Override
			public void revoked(LeadershipRevokedEvent event) {
				long now = System.nanoTime();
				for (Term term : LeadershipHandOffTests.this.tenures) {
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

	/**
	 * Each tenure (of a distlock member) ended before the next began, as the members'
	 * events tell, and the epochs grew.
	 */
	private void assertTenuresNeverOverlap() {
		List<Term> sorted = new ArrayList<>(this.tenures);
		sorted.sort(Comparator.comparingLong(Term::granted));
		for (int i = 1; i < sorted.size(); i++) {
			Term before = sorted.get(i - 1);
			Term after = sorted.get(i);
			assertThat(before.revoked).as("end of %s before %s", before, after).isNotZero();
			assertThat(before.revoked).as("end of %s before %s", before, after).isLessThan(after.granted);
			assertThat(after.epoch).as("epoch of %s after %s", after, before).isGreaterThan(before.epoch);
		}
	}

	/**
	 * One tenure as the member's events told it: granted and revoked on System.nanoTime.
	 */
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

		long granted() {
			return this.granted;
		}

		@Override
		public String toString() {
			return this.member + " (epoch " + this.epoch + ")";
		}

	}

}
