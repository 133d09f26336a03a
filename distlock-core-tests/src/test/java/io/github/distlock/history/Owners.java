package io.github.distlock.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.apache.curator.framework.state.ConnectionState;

import io.github.distlock.core.OwnedPartition;
import io.github.distlock.core.Partitions;
import io.github.distlock.testsupport.Faults;

/**
 * The ownership intervals of the partitioned workload ({@link PartitionMember}), and
 * their rules (docs/failure-model.md, "The partitioned workload"):
 * <ul>
 * <li><b>Two owners.</b> An interval begins when the member's listener is told the
 * partition is assigned (with its epoch), and ends when its listener for the revocation
 * returns (the work stops there: the partition is handed over only then), or when the
 * member's client reported its session {@code LOST}, whichever comes first. When two
 * members' intervals of one partition overlap, the one with the smaller epoch is excused
 * only by the leadership rules' session rule ({@link LeadershipAnalysis}): its client
 * reported the session {@code LOST} after the interval began, and its first report of
 * trouble since its last connection came within one session timeout of the moment the
 * other's interval began.</li>
 * <li><b>Epoch order.</b> Of two intervals of one partition of different members, the one
 * with the smaller epoch never begins after the other ended; two members never own a
 * partition with one epoch; a member's own epochs of a partition never go back.</li>
 * <li><b>Owned again.</b> In the run's calm phase, once the membership is quiet (the same
 * members joined, each in the same session and connected, none leaving), every partition
 * is owned by some member within one session timeout plus 2 s; sampled every 100 ms.</li>
 * </ul>
 */
final class Owners implements Runnable {

	/** The partitioned group. */
	static final String GROUP = "parts";

	/** Its number of partitions. */
	static final int COUNT = 8;

	private final CheckerRun run;

	private final List<PartitionMember> members = new ArrayList<>();

	private final Map<String, Interval> open = new HashMap<>();

	private final List<Interval> intervals = new ArrayList<>();

	private final Set<String> reported = new HashSet<>();

	private int excused;

	private int judgedQuiet;

	Owners(CheckerRun run) {
		this.run = run;
	}

	static String key(int index) {
		return "partition/" + GROUP + "/" + index;
	}

	void add(PartitionMember member) {
		this.members.add(member);
	}

	List<PartitionMember> members() {
		return this.members;
	}

	void membership(String member, int op, String what) {
		this.run.history().record(History.Type.MEMBERSHIP, member, op, "partition/" + GROUP, 0, what);
	}

	synchronized void assigned(PartitionMember member, int index, long epoch) {
		History.Event event = this.run.history()
			.record(History.Type.LEADS, member.name(), 0, key(index), epoch, "told it owns partition " + index);
		Interval interval = new Interval(member, index, epoch, event.nanos(), event.seq());
		this.open.put(member.name() + "|" + index + "|" + epoch, interval);
		this.intervals.add(interval);
	}

	synchronized void revoked(PartitionMember member, int index, long epoch, String reason) {
		History.Event event = this.run.history()
			.record(History.Type.REVOKED, member.name(), 0, key(index), epoch,
					"stopped owning partition " + index + " (" + reason + ")");
		Interval interval = this.open.remove(member.name() + "|" + index + "|" + epoch);
		if (interval != null) {
			interval.end = event.nanos();
		}
	}

	// Owned again: sampled in the calm phase

	@Override
	public void run() {
		long deadline = Faults.NODES.sessionTimeout().plusSeconds(2).toNanos();
		String quiet = null;
		long since = 0;
		while (!this.run.stopping()) {
			long now = System.nanoTime();
			String signature = this.run.calm() ? signature() : null;
			if (signature == null || !signature.equals(quiet)) {
				quiet = signature;
				since = now;
			}
			else if (now - since > deadline) {
				this.judgedQuiet++;
				Set<Integer> unowned = unowned();
				if (!unowned.isEmpty() && this.reported.add("owned again")) {
					this.run.violation("partitions", 0, "partition/" + GROUP,
							"owned again: partitions " + unowned + " of " + GROUP + " had no owner "
									+ Duration.ofNanos(now - since).toMillis() + " ms into a quiet membership ("
									+ signature + "), more than a session timeout plus 2 s");
				}
			}
			DistlockActor.park(100);
		}
	}

	/**
	 * The joined members with their sessions, if each is connected; {@code null} if one
	 * is not, or none has joined.
	 */
	private String signature() {
		List<String> joined = new ArrayList<>();
		for (PartitionMember member : this.members) {
			if (member.partitions() == null) {
				continue;
			}
			if (!member.node().client.getZookeeperClient().isConnected()) {
				return null;
			}
			long session;
			try {
				session = member.node().client.getZookeeperClient().getZooKeeper().getSessionId();
			}
			catch (Exception ex) {
				return null;
			}
			joined.add(member.name() + "@0x" + Long.toHexString(session));
		}
		return joined.isEmpty() ? null : String.join(", ", joined);
	}

	/** The partitions no joined member lists as owned. */
	Set<Integer> unowned() {
		Set<Integer> unowned = new TreeSet<>();
		for (int index = 0; index < COUNT; index++) {
			unowned.add(index);
		}
		for (PartitionMember member : this.members) {
			Partitions partitions = member.partitions();
			if (partitions != null) {
				partitions.owned().stream().map(OwnedPartition::index).forEach(unowned::remove);
			}
		}
		return unowned;
	}

	// Judged after the run

	List<CheckerRun.Violation> judge(Duration sessionTimeout) {
		long session = sessionTimeout.toNanos();
		List<CheckerRun.Violation> violations = new ArrayList<>();
		List<Interval> all;
		synchronized (this) {
			all = new ArrayList<>(this.intervals);
		}
		for (Interval interval : all) {
			interval.lost = lostAfter(interval.member.node(), interval.start);
		}
		Map<Integer, List<Interval>> byIndex = new TreeMap<>(
				all.stream().collect(Collectors.groupingBy((interval) -> interval.index)));
		for (List<Interval> partition : byIndex.values()) {
			partition.sort(Comparator.comparingLong((Interval interval) -> interval.start));
			for (int i = 0; i < partition.size(); i++) {
				Interval a = partition.get(i);
				for (int j = i + 1; j < partition.size(); j++) {
					judge(a, partition.get(j), session, violations);
				}
			}
		}
		return violations;
	}

	private void judge(Interval a, Interval b, long session, List<CheckerRun.Violation> violations) {
		History history = this.run.history();
		if (a.member == b.member) {
			if (b.epoch < a.epoch) {
				violation(violations, b, "epoch order: " + b.member.name() + " was told it owns partition " + b.index
						+ " with epoch " + b.epoch + " after it had owned it with epoch " + a.epoch);
			}
			return;
		}
		String both = a.describe(history) + " and " + b.describe(history);
		if (a.epoch == b.epoch) {
			violation(violations, b,
					"epoch order: two members owned partition " + b.index + " with one epoch: " + both);
			return;
		}
		Interval older = (a.epoch < b.epoch) ? a : b;
		Interval newer = (older == a) ? b : a;
		if (newer.end() <= older.start) {
			violation(violations, older, "epoch order: " + older.describe(history) + " began to own partition "
					+ older.index + " after " + newer.describe(history) + ", whose epoch is larger, had ended");
			return;
		}
		if (older.end() <= newer.start) {
			return;
		}
		LeadershipAnalysis.Session lost = LeadershipAnalysis.session(older.member.node(), older.start);
		if (lost.lost() == Long.MAX_VALUE) {
			violation(violations, newer,
					"two owners: " + both + " both owned partition " + older.index
							+ ", and the older one's session had not ended: its client " + older.member.node().name
							+ " reported no LOST after that ownership began");
		}
		else if (lost.trouble() > newer.start + session) {
			violation(violations, newer,
					"two owners: " + both + " both owned partition " + older.index + ", and the older one's client "
							+ older.member.node().name + " reported no SUSPENDED or LOST within one session timeout ("
							+ (session / 1_000_000) + " ms) of the newer one's start");
		}
		else {
			this.excused++;
		}
	}

	/** When the node's client reported LOST after the given moment, if it did. */
	private static long lostAfter(Node node, long at) {
		for (Node.Change change : node.changes()) {
			if (change.nanos() >= at && change.state() == ConnectionState.LOST) {
				return change.nanos();
			}
		}
		return Long.MAX_VALUE;
	}

	private void violation(List<CheckerRun.Violation> violations, Interval interval, String text) {
		if (!this.reported.add(text.substring(0, text.indexOf(':')) + interval.index + interval.member.name())) {
			return;
		}
		History history = this.run.history();
		violations.add(new CheckerRun.Violation(interval.start, "op 0 (" + interval.member.name() + "), event #"
				+ interval.seq + ": " + text + "\n" + history.excerpt(interval.seq, key(interval.index), 12)));
	}

	/** A line for the run's summary. */
	synchronized String summary() {
		Map<String, Long> byMember = new TreeMap<>(this.intervals.stream()
			.collect(Collectors.groupingBy((interval) -> interval.member.name(), Collectors.counting())));
		return "partitions: " + this.intervals.size() + " ownerships " + byMember + ", " + this.excused
				+ " overlaps of owners whose session had ended, " + this.judgedQuiet
				+ " samples of a quiet membership judged";
	}

	/** One ownership interval. */
	static final class Interval {

		final PartitionMember member;

		final int index;

		final long epoch;

		final long start;

		final long seq;

		long end = Long.MAX_VALUE;

		long lost = Long.MAX_VALUE;

		Interval(PartitionMember member, int index, long epoch, long start, long seq) {
			this.member = member;
			this.index = index;
			this.epoch = epoch;
			this.start = start;
			this.seq = seq;
		}

		/** Where it ends: its revocation handled, or its session known lost. */
		long end() {
			return Math.min(this.end, this.lost);
		}

		String describe(History history) {
			return this.member.name() + " (epoch " + this.epoch + ", from " + history.millis(this.start) + " ms"
					+ ((end() != Long.MAX_VALUE) ? " to " + history.millis(end()) + " ms" : ", still open") + ")";
		}

	}

}
