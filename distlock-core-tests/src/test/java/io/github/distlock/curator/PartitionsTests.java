package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.OwnedPartition;
import io.github.distlock.core.PartitionHash;
import io.github.distlock.core.PartitionAssignedEvent;
import io.github.distlock.core.PartitionGuard;
import io.github.distlock.core.PartitionListener;
import io.github.distlock.core.PartitionRevokedEvent;
import io.github.distlock.core.PartitionRevokedEvent.Reason;
import io.github.distlock.core.Partitions;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Owned partitions ({@link CuratorLeadership#partitions}) on a real ZooKeeper, each
 * member a client of its own, as an instance of its own. Every member records what its
 * listeners are told, numbered in one sequence shared by all members: the order of a
 * revocation and the next assignment of a partition is read from those numbers, never
 * from timing. Who should own a partition is computed here from the hash the docs give
 * ({@code docs/partitions.md}), not by the code under test.
 */
class PartitionsTests {

	private static final Duration WITHIN = Duration.ofSeconds(20);

	private static final String GROUP = "orders";

	private static final Duration LONG_DRAIN = Duration.ofSeconds(60);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final AtomicLong sequence = new AtomicLong();

	private final List<Told> told = new CopyOnWriteArrayList<>();

	@Test
	void threeMembersOwnEveryPartitionOnceAndAFourthTakesOnlyThePartitionsItWins() throws Exception {
		List<Member> members = new ArrayList<>(List.of(member("a"), member("b"), member("c")));
		for (Member member : members) {
			member.join(16);
		}
		Map<Integer, Long> before = awaitOwnedAsHashed(members, 16);
		long joined = this.sequence.get();
		Member d = member("d");
		members.add(d);
		Set<Integer> moving = new TreeSet<>();
		for (int index = 0; index < 16; index++) {
			if (!owner(List.of("a", "b", "c"), index).equals(owner(List.of("a", "b", "c", "d"), index))) {
				moving.add(index);
				assertThat(owner(List.of("a", "b", "c", "d"), index)).isEqualTo("d");
			}
		}
		assertThat(moving).hasSizeBetween(2, 15);
		d.join(16);
		Map<Integer, Long> after = awaitOwnedAsHashed(members, 16);
		List<Told> since = this.told.stream().filter((told) -> told.sequence() > joined).toList();
		assertThat(since.stream().filter((told) -> told.reason() != null).map(Told::index))
			.containsExactlyInAnyOrderElementsOf(moving);
		assertThat(since.stream().filter((told) -> told.reason() == null).map(Told::index))
			.containsExactlyInAnyOrderElementsOf(moving);
		for (int index : moving) {
			Told revoked = only(since, index, false);
			Told assigned = only(since, index, true);
			assertThat(revoked.member()).isEqualTo(owner(List.of("a", "b", "c"), index));
			assertThat(revoked.reason()).isEqualTo(Reason.REBALANCED);
			assertThat(revoked.epoch()).isEqualTo(before.get(index));
			assertThat(assigned.member()).isEqualTo("d");
			assertThat(revoked.sequence()).isLessThan(assigned.sequence());
			assertThat(assigned.epoch()).isEqualTo(after.get(index)).isGreaterThan(revoked.epoch());
		}
		for (int index = 0; index < 16; index++) {
			if (!moving.contains(index)) {
				assertThat(after.get(index)).isEqualTo(before.get(index));
			}
		}
		assertNeverTwoOwners();
	}

	@Test
	void aGracefulLeaveHandsItsPartitionsOverAtOnceWhileItsSessionLives() throws Exception {
		Member a = member("a");
		Member b = member("b");
		Member c = member("c");
		for (Member member : List.of(a, b, c)) {
			member.join(16);
		}
		Map<Integer, Long> before = awaitOwnedAsHashed(List.of(a, b, c), 16);
		long session = c.session();
		List<Integer> left = c.partitions.owned().stream().map(OwnedPartition::index).toList();
		assertThat(left).isNotEmpty();
		long leaving = this.sequence.get();
		c.partitions.leave().get(WITHIN.toSeconds(), TimeUnit.SECONDS);
		assertThat(c.partitions.owned()).isEmpty();
		Map<Integer, Long> after = awaitOwnedAsHashed(List.of(a, b), 16);
		assertThat(c.session()).isEqualTo(session);
		assertThat(this.told.stream()
			.filter((told) -> told.sequence() > leaving && told.member().equals("c"))
			.map(Told::reason)
			.distinct()).containsExactly(Reason.LEFT);
		for (int index : left) {
			assertThat(after.get(index)).isGreaterThan(before.get(index));
		}
		assertThatIllegalStateException().isThrownBy(() -> c.partitions.enter(left.get(0)))
			.withMessageContaining("partition " + left.get(0) + " of group 'orders' is not owned by this instance");
		assertNeverTwoOwners();
	}

	@Test
	void theEpochOfAPartitionGrowsFromOneOwnerToTheNext() throws Exception {
		Member a = member("a");
		Member b = member("b");
		a.join(4);
		awaitOwnedAsHashed(List.of(a), 4);
		b.join(4);
		awaitOwnedAsHashed(List.of(a, b), 4);
		b.partitions.leave().get(WITHIN.toSeconds(), TimeUnit.SECONDS);
		awaitOwnedAsHashed(List.of(a), 4);
		Map<Integer, List<Long>> epochs = new HashMap<>();
		this.told.stream()
			.filter((told) -> told.reason() == null)
			.sorted(Comparator.comparingLong(Told::sequence))
			.forEach((told) -> epochs.computeIfAbsent(told.index(), (index) -> new ArrayList<>()).add(told.epoch()));
		assertThat(epochs.values()).anySatisfy((owners) -> assertThat(owners).hasSize(3));
		epochs.values().forEach((owners) -> assertThat(owners).isSorted().doesNotHaveDuplicates());
		assertNeverTwoOwners();
	}

	@Test
	void workEnteredUnderAPartitionHoldsItsHandOverUntilItEnds() throws Exception {
		Member a = member("a", LONG_DRAIN);
		a.join(16);
		awaitOwnedAsHashed(List.of(a), 16);
		List<Integer> moving = new ArrayList<>();
		for (int index = 0; index < 16; index++) {
			if (owner(List.of("a", "b"), index).equals("b")) {
				moving.add(index);
			}
		}
		assertThat(moving).hasSizeGreaterThanOrEqualTo(2);
		int held = moving.get(0);
		PartitionGuard guard = a.partitions.enter(held);
		assertThat(guard.index()).isEqualTo(held);
		Member b = member("b");
		b.join(16);
		await().atMost(WITHIN)
			.until(() -> b.ownedIndexes().containsAll(moving.subList(1, moving.size()))
					&& this.told.stream().anyMatch((told) -> told.member().equals("a") && told.index() == held));
		// Told, and every other partition handed over: this one waits for its work.
		assertThat(ownerNode(a.client(), held)).isEqualTo("a");
		assertThat(b.ownedIndexes()).doesNotContain(held);
		assertThat(a.ownedIndexes()).doesNotContain(held);
		assertThatIllegalStateException().isThrownBy(() -> a.partitions.enter(held))
			.withMessageContaining("is being given up");
		guard.close();
		guard.close();
		awaitOwnedAsHashed(List.of(a, b), 16);
		assertThat(only(this.told, held, true, "b").sequence())
			.isGreaterThan(only(this.told, held, false, "a").sequence());
		assertNeverTwoOwners();
	}

	@Test
	void workThatDoesNotEndHoldsTheHandOverForTheDrainTimeAtMost() throws Exception {
		Duration drain = Duration.ofSeconds(2);
		Member a = member("a", drain);
		a.join(16);
		awaitOwnedAsHashed(List.of(a), 16);
		int held = -1;
		for (int index = 0; index < 16 && held < 0; index++) {
			if (owner(List.of("a", "b"), index).equals("b")) {
				held = index;
			}
		}
		PartitionGuard guard = a.partitions.enter(held);
		Member b = member("b");
		b.join(16);
		awaitOwnedAsHashed(List.of(a, b), 16);
		Told revoked = only(this.told, held, false, "a");
		Told assigned = only(this.told, held, true, "b");
		assertThat(Duration.ofNanos(assigned.nanos() - revoked.nanos())).isGreaterThanOrEqualTo(drain);
		guard.close();
		assertNeverTwoOwners();
	}

	@Test
	void aMemberCutFromZooKeeperGivesUpAtOnceAndTheOthersTakeOverWithinASessionTimeout() throws Exception {
		TcpRelay relay = this.zookeeper.nodes().register(new TcpRelay(this.zookeeper.server().getPort()));
		Member a = member("a");
		Member b = member("b");
		Member cut = new Member("c", this.zookeeper.nodes().node(relay.getConnectString()), LONG_DRAIN);
		for (Member member : List.of(a, b, cut)) {
			member.join(16);
		}
		Map<Integer, Long> before = awaitOwnedAsHashed(List.of(a, b, cut), 16);
		List<Integer> owned = cut.ownedIndexes();
		assertThat(owned).isNotEmpty();
		long cutAt = this.sequence.get();
		relay.pause();
		// Given up once the connection is suspended, before the server ends the session.
		await().atMost(WITHIN).until(() -> cut.partitions.owned().isEmpty());
		Map<Integer, Long> takenOver = awaitOwnedAsHashed(List.of(a, b), 16,
				this.zookeeper.options().sessionTimeout().multipliedBy(3));
		List<Told> told = this.told.stream().filter((each) -> each.sequence() > cutAt).toList();
		for (int index : owned) {
			Told revoked = only(told, index, false, "c");
			assertThat(revoked.reason()).isIn(Reason.SUSPENDED, Reason.SESSION_LOST);
			assertThat(takenOver.get(index)).isGreaterThan(before.get(index));
		}
		relay.resume();
		Map<Integer, Long> back = awaitOwnedAsHashed(List.of(a, b, cut), 16);
		for (int index : owned) {
			assertThat(back.get(index)).isGreaterThan(takenOver.get(index));
		}
	}

	@Test
	void aDeleteThatDidNotGoOutBeforeItsSessionEndedNeverRemovesTheNextOwnersNode() throws Exception {
		TcpRelay relay = this.zookeeper.nodes().register(new TcpRelay(this.zookeeper.server().getPort()));
		Member cut = new Member("c", this.zookeeper.nodes().node(relay.getConnectString()), LONG_DRAIN);
		cut.join(1);
		await().atMost(WITHIN).until(() -> cut.ownedIndexes().equals(List.of(0)));
		// A member that would not own the partition while c is live.
		String id = List.of("a", "b", "d", "e", "f", "g")
			.stream()
			.filter((candidate) -> PartitionHash.ownerOf(List.of("c", candidate), 0).equals("c"))
			.findFirst()
			.orElseThrow();
		Member next = member(id);
		next.join(1);
		await().atMost(WITHIN).until(() -> next.partitions.ownerOf(0).equals(Optional.of("c")));
		long session = cut.client().getZookeeperClient().getZooKeeper().getSessionId();

		// c leaves with its connection stalled: its delete does not reach the server,
		// which ends its session; the next member owns the partition.
		relay.pause();
		CompletableFuture<Void> left = cut.partitions.leave();
		await().atMost(this.zookeeper.options().sessionTimeout().multipliedBy(4))
			.until(() -> next.ownedIndexes().equals(List.of(0)));
		long epoch = next.partitions.owned().get(0).epoch();
		long sequence = this.sequence.get();

		// c is back, in a new session: its delete is not sent there.
		relay.resume();
		await().atMost(WITHIN)
			.until(() -> cut.client().getZookeeperClient().isConnected()
					&& cut.client().getZookeeperClient().getZooKeeper().getSessionId() != session);
		// Its leave ends either way: the member node's delete may fail.
		left.handle((done, ex) -> done).get(WITHIN.toSeconds(), TimeUnit.SECONDS);
		// A round trip of c's client after its reconnection: what it sends again is sent.
		cut.client().sync().forPath("/partitions/" + GROUP);
		cut.client().checkExists().forPath("/partitions/" + GROUP + "/owners/0");
		Stat stat = next.client().checkExists().forPath("/partitions/" + GROUP + "/owners/0");
		assertThat(stat).isNotNull();
		assertThat(stat.getCzxid()).isEqualTo(epoch);
		assertThat(next.ownedIndexes()).containsExactly(0);
		assertThat(this.told.stream().filter((told) -> told.sequence() > sequence)).isEmpty();
	}

	@Test
	void aMemberWhoseSessionExpiredGivesUpAtOnceAndOwnsAgainInItsNewSessionWithLargerEpochs() throws Exception {
		Member a = member("a");
		Member b = member("b");
		a.join(8);
		b.join(8);
		Map<Integer, Long> before = awaitOwnedAsHashed(List.of(a, b), 8);
		List<Integer> owned = b.ownedIndexes();
		assertThat(owned).isNotEmpty();
		long session = b.session();
		long expiring = this.sequence.get();
		// Expired on the client's side: the server keeps the session, and its owner
		// nodes, until its own timeout; the client starts a new session at once.
		Faults.expireSession(b.client());
		Map<Integer, Long> after = awaitOwnedAsHashed(List.of(a, b), 8,
				this.zookeeper.options().sessionTimeout().multipliedBy(4));
		assertThat(b.session()).isNotEqualTo(session);
		List<Told> told = this.told.stream().filter((each) -> each.sequence() > expiring).toList();
		for (int index : owned) {
			assertThat(only(told, index, false, "b").reason()).isIn(Reason.SUSPENDED, Reason.SESSION_LOST);
			assertThat(only(told, index, true, "b").epoch()).isEqualTo(after.get(index))
				.isGreaterThan(before.get(index));
		}
	}

	@Test
	void drainingLocksGiveUpTheirPartitionsUntilTheDrainEnds() throws Exception {
		Member a = member("a");
		Member b = member("b");
		a.join(8);
		b.join(8);
		awaitOwnedAsHashed(List.of(a, b), 8);
		long draining = this.sequence.get();
		assertThat(a.locks.admin().drain(Duration.ZERO)).isTrue();
		awaitOwnedAsHashed(List.of(b), 8);
		assertThat(this.told.stream()
			.filter((told) -> told.sequence() > draining && told.member().equals("a"))
			.map(Told::reason)
			.distinct()).containsExactly(Reason.DRAINED);
		a.locks.admin().undrain();
		awaitOwnedAsHashed(List.of(a, b), 8);
		assertNeverTwoOwners();
	}

	@Test
	void aKeyHasTheSamePartitionInEveryInstanceAndRelease() throws Exception {
		Member a = member("a");
		Partitions sixteen = a.leadership.partitions("keys", 16);
		Partitions seven = a.leadership.partitions("other-keys", 7);
		assertThat(sixteen.partitionOf("order-1")).isEqualTo(5);
		assertThat(sixteen.partitionOf("order-2")).isEqualTo(11);
		assertThat(sixteen.partitionOf("")).isEqualTo(6);
		assertThat(sixteen.partitionOf("ключ")).isEqualTo(5);
		assertThat(sixteen.partitionOf((Object) 42L)).isEqualTo(12);
		assertThat(seven.partitionOf("order-2")).isEqualTo(5);
		assertThat(seven.partitionOf((Object) 42)).isEqualTo(2);
		for (String key : List.of("", "a", "order-1", "order-2", "ключ", "42")) {
			assertThat(sixteen.partitionOf(key)).isEqualTo((int) Long.remainderUnsigned(hash64(key), 16));
			assertThat(seven.partitionOf(key)).isEqualTo((int) Long.remainderUnsigned(hash64(key), 7));
		}
		// FNV-1a's published value for "a", before the finalizer.
		assertThat(fnv1a("a")).isEqualTo(0xaf63dc4c8601ec8cL);
		assertThat(hash64("a")).isEqualTo(0x82a2a958a9bece5bL);
		assertThat(io.github.distlock.core.PartitionHash.hash64("a")).isEqualTo(0x82a2a958a9bece5bL);
	}

	@Test
	void badCountsAndIndexesAreRefusedNamingTheGroupAndTheValues() throws Exception {
		Member a = member("a");
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> a.leadership.partitions(GROUP, 0))
			.withMessageContaining("Leadership.partitions('orders', 0)")
			.withMessageContaining("at least 1");
		Partitions partitions = a.leadership.partitions(GROUP, 8);
		assertThat(a.leadership.partitions(GROUP, 8)).isSameAs(partitions);
		assertThatExceptionOfType(LockConfigurationException.class).isThrownBy(() -> a.leadership.partitions(GROUP, 12))
			.withMessageContaining("group 'orders' with 8 partitions, not 12");
		assertThatIllegalArgumentException().isThrownBy(() -> partitions.enter(8))
			.withMessageContaining("Partitions.enter(8): group 'orders' has partitions 0 to 7");
		assertThatIllegalArgumentException().isThrownBy(() -> partitions.ownerOf(-1))
			.withMessageContaining("Partitions.ownerOf(-1)");
		partitions.leave().get(WITHIN.toSeconds(), TimeUnit.SECONDS);
		assertThat(a.leadership.partitions(GROUP, 12)).isNotSameAs(partitions);
	}

	// The members

	private Member member(String id) {
		return member(id, LONG_DRAIN);
	}

	private Member member(String id, Duration drain) {
		return new Member(id, this.zookeeper.newNode(), drain);
	}

	private final class Member {

		private final String id;

		private final CuratorLocks locks;

		private final CuratorLeadership leadership;

		private Partitions partitions;

		Member(String id, CuratorLocks locks, Duration drain) {
			this.id = id;
			this.locks = locks;
			this.leadership = PartitionsTests.this.zookeeper.nodes().register(new CuratorLeadership(locks, drain, id));
		}

		/**
		 * Join the group, the listener added before anything can be told: the event
		 * thread is held until it is.
		 */
		void join(int count) throws InterruptedException {
			CountDownLatch added = new CountDownLatch(1);
			this.locks.engine().threads().reportLoss(() -> {
				try {
					added.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			try {
				this.partitions = this.leadership.partitions(GROUP, count);
				this.partitions.addListener(new PartitionListener() {

					@Override
					public void assigned(PartitionAssignedEvent event) {
						record(event.memberId(), event.index(), event.epoch(), null);
					}

					@Override
					public void revoked(PartitionRevokedEvent event) {
						record(Member.this.id, event.index(), event.epoch(), event.reason());
					}

				});
			}
			finally {
				added.countDown();
			}
		}

		private void record(String member, int index, long epoch, @Nullable Reason reason) {
			// The number and the time are taken together, in the listener.
			synchronized (PartitionsTests.this.told) {
				PartitionsTests.this.told.add(new Told(PartitionsTests.this.sequence.incrementAndGet(), member, index,
						epoch, reason, System.nanoTime()));
			}
		}

		List<Integer> ownedIndexes() {
			return this.partitions.owned().stream().map(OwnedPartition::index).toList();
		}

		CuratorFramework client() {
			return this.locks.client();
		}

		long session() throws Exception {
			return client().getZookeeperClient().getZooKeeper().getSessionId();
		}

	}

	/**
	 * What a member's listeners were told.
	 *
	 * @param reason null for an assignment
	 */
	private record Told(long sequence, String member, int index, long epoch, @Nullable Reason reason, long nanos) {

	}

	// What should be, and what is

	/**
	 * Wait until every partition is owned by the member the hash gives among these, as
	 * that member says and as ZooKeeper's owner node says, and no other of them owns it.
	 * @return each partition's epoch
	 */
	private Map<Integer, Long> awaitOwnedAsHashed(List<Member> members, int count) {
		return awaitOwnedAsHashed(members, count, WITHIN);
	}

	private Map<Integer, Long> awaitOwnedAsHashed(List<Member> members, int count, Duration within) {
		List<String> ids = members.stream().map((member) -> member.id).toList();
		Map<Integer, Long> epochs = new HashMap<>();
		await().atMost(within).until(() -> {
			epochs.clear();
			for (int index = 0; index < count; index++) {
				String expected = owner(ids, index);
				for (Member member : members) {
					List<Integer> owned = member.ownedIndexes();
					if (owned.contains(index) != member.id.equals(expected)) {
						return false;
					}
					if (member.partitions.ownerOf(index).filter(expected::equals).isEmpty()) {
						return false;
					}
				}
				Member owner = members.get(ids.indexOf(expected));
				int partition = index;
				Stat stat = new Stat();
				String node = ownerNode(owner.client(), index, stat);
				long epoch = owner.partitions.owned()
					.stream()
					.filter((owned) -> owned.index() == partition)
					.mapToLong(OwnedPartition::epoch)
					.findFirst()
					.orElse(-1);
				if (!expected.equals(node) || epoch != stat.getCzxid()) {
					return false;
				}
				epochs.put(index, epoch);
			}
			return true;
		});
		return Map.copyOf(epochs);
	}

	private static @Nullable String ownerNode(CuratorFramework client, int index) throws Exception {
		return ownerNode(client, index, new Stat());
	}

	private static @Nullable String ownerNode(CuratorFramework client, int index, Stat stat) throws Exception {
		try {
			byte[] data = client.getData().storingStatIn(stat).forPath("/partitions/" + GROUP + "/owners/" + index);
			return new String(data, StandardCharsets.UTF_8);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
	}

	private static Told only(List<Told> told, int index, boolean assigned) {
		List<Told> found = told.stream()
			.filter((each) -> each.index() == index && (each.reason() == null) == assigned)
			.toList();
		assertThat(found).hasSize(1);
		return found.get(0);
	}

	private static Told only(List<Told> told, int index, boolean assigned, String member) {
		return only(told.stream().filter((each) -> each.member().equals(member)).toList(), index, assigned);
	}

	/**
	 * Per partition, in the order told: an assignment only when no member owns it, with a
	 * larger epoch than any before; a revocation only of the ownership told last.
	 */
	private void assertNeverTwoOwners() {
		Map<Integer, Told> owners = new HashMap<>();
		Map<Integer, Long> epochs = new HashMap<>();
		List<Told> ordered = new ArrayList<>(this.told);
		ordered.sort(Comparator.comparingLong(Told::sequence));
		for (Told told : ordered) {
			Told owner = owners.get(told.index());
			if (told.reason() == null) {
				assertThat(owner).as("owner of partition %d when %s", told.index(), told).isNull();
				assertThat(told.epoch()).isGreaterThan(epochs.getOrDefault(told.index(), 0L));
				owners.put(told.index(), told);
				epochs.put(told.index(), told.epoch());
			}
			else {
				assertThat(owner).as("owner of partition %d when %s", told.index(), told).isNotNull();
				assertThat(owner.member()).isEqualTo(told.member());
				assertThat(owner.epoch()).isEqualTo(told.epoch());
				owners.remove(told.index());
			}
		}
	}

	// The hash, as docs/partitions.md gives it

	private static String owner(Collection<String> members, int index) {
		String owner = null;
		long best = 0;
		for (String member : members) {
			long weight = hash64(member + "#" + index);
			if (owner == null || Long.compareUnsigned(weight, best) > 0
					|| (weight == best && member.compareTo(owner) < 0)) {
				owner = member;
				best = weight;
			}
		}
		return owner;
	}

	private static long hash64(String key) {
		long hash = fnv1a(key);
		hash ^= hash >>> 33;
		hash *= 0xff51afd7ed558ccdL;
		hash ^= hash >>> 33;
		hash *= 0xc4ceb9fe1a85ec53L;
		hash ^= hash >>> 33;
		return hash;
	}

	private static long fnv1a(String key) {
		long hash = 0xcbf29ce484222325L;
		for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
			hash ^= b & 0xff;
			hash *= 0x100000001b3L;
		}
		return hash;
	}

}
