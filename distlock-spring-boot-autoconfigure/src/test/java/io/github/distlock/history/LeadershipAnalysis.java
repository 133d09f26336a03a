package io.github.distlock.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.apache.curator.framework.state.ConnectionState;

import io.github.distlock.core.LockKind;

/**
 * Judges the leadership workload once the run is over, by the session rule of leader
 * election (invariant 8 of docs/failure-model.md: never two leaders that both believe
 * they lead beyond one session timeout, never two epochs in the wrong order), with no
 * margin of its own:
 * <ul>
 * <li><b>Two leaders.</b> When the "I lead" intervals ({@link Leads}) of two members of
 * one group overlap, the one with the smaller epoch (the older node) is excused only if
 * it had lost its session, as its own client tells: after the client's last connection
 * before that tenure began, the client reported the session {@code LOST} (a reconnection
 * in the same session in between does not end it: a tenure in doubt under the
 * {@code LOST} policy goes on), its first report of trouble since its last reconnection
 * ({@code SUSPENDED} or {@code LOST}) came within one session timeout of the moment the
 * other began to lead, and the older interval ended within that session timeout too. The
 * other leads only once the older node is gone on the server, so that moment is the
 * latest at which the older one can have lost its session. (Whether the trouble was
 * reported before the interval ended cannot be asked: the client's connection listeners,
 * the engine's and the checker's, are called in no fixed order.)</li>
 * <li><b>Epoch order.</b> Of two tenures of different members, the one with the smaller
 * epoch never begins after the other has ended; two members never lead with one epoch; a
 * member's own epochs never go back.</li>
 * <li><b>Stale writes.</b> Every leader writes what it does to the fenced store with its
 * epoch, after asking its tenure whether it still leads. A write with a smaller epoch
 * than one the store has seen from another member (turned away by the store) is excused
 * only by the same rule: the writer's client reported its session {@code LOST}, its first
 * report of trouble came within one session timeout of the moment the newer leader began
 * to lead, and so did the write.</li>
 * </ul>
 * "Told once per tenure" is checked as the events come ({@link Leads}); liveness and what
 * is left after quiescence by {@link CheckerRun}.
 */
final class LeadershipAnalysis {

	private final History history;

	private final Leads leads;

	private final Map<Integer, Node> nodes;

	private final long session;

	private final List<CheckerRun.Violation> violations = new ArrayList<>();

	private final Set<Object> reported = new HashSet<>();

	private int excusedOverlaps;

	private int excusedWrites;

	LeadershipAnalysis(History history, Leads leads, List<Node> nodes, Duration session) {
		this.history = history;
		this.leads = leads;
		this.nodes = nodes.stream().collect(Collectors.toMap((node) -> node.index, Function.identity()));
		this.session = session.toNanos();
	}

	/** Whether a hold is a leader's write. */
	static boolean isLeader(HoldRecord hold) {
		return hold.lock.startsWith(LockKind.LEADER.subtree() + "/");
	}

	List<CheckerRun.Violation> judge(FencedLocks store) {
		Map<String, List<Leads.Lead>> byGroup = new TreeMap<>(this.leads.leads()
			.stream()
			.filter((lead) -> lead.epoch > 0)
			.collect(Collectors.groupingBy((lead) -> lead.group)));
		byGroup.values().forEach(this::judgeGroup);
		for (FencedLocks.Rejection rejection : store.rejections()) {
			if (isLeader(rejection.hold())) {
				judgeWrite(rejection);
			}
		}
		return this.violations;
	}

	private void judgeGroup(List<Leads.Lead> leads) {
		List<Leads.Lead> sorted = new ArrayList<>(leads);
		sorted.sort(Comparator.comparingLong((Leads.Lead lead) -> lead.start));
		for (int i = 0; i < sorted.size(); i++) {
			Leads.Lead a = sorted.get(i);
			for (int j = i + 1; j < sorted.size(); j++) {
				Leads.Lead b = sorted.get(j);
				if (a.member == b.member) {
					if (b.epoch < a.epoch) {
						violation(b, b.startSeq, "epoch order: " + b.member.name() + " was told it leads " + b.group
								+ " with epoch " + b.epoch + " after it had led with epoch " + a.epoch);
					}
					continue;
				}
				if (a.epoch == b.epoch) {
					violation(b, b.startSeq, "epoch order: two members were told they lead " + b.group
							+ " with one epoch: " + a.describe(this.history) + " and " + b.describe(this.history));
					continue;
				}
				Leads.Lead older = (a.epoch < b.epoch) ? a : b;
				Leads.Lead newer = (older == a) ? b : a;
				if (newer.end() <= older.start) {
					violation(older, older.startSeq,
							"epoch order: " + older.describe(this.history) + " was told it leads " + older.group
									+ " after " + newer.describe(this.history) + ", whose epoch is larger, had led");
				}
				else if (older.end() > newer.start) {
					judgeOverlap(older, newer);
				}
			}
		}
	}

	private void judgeOverlap(Leads.Lead older, Leads.Lead newer) {
		long began = Math.min(newer.start, this.leads.firstTold(newer.member.name(), newer.group, newer.epoch));
		Session session = session(older.member.node(), older.start);
		String both = older.describe(this.history) + " and " + newer.describe(this.history);
		if (session.lost() == Long.MAX_VALUE) {
			violation(older, newer.startSeq,
					"two leaders: " + both + " both believed they led " + older.group + ", and the older one's session"
							+ " had not ended: its client " + older.member.node().name + " reported no LOST after"
							+ " that tenure began");
		}
		else if (session.trouble() > began + this.session) {
			violation(older, newer.startSeq,
					"two leaders: " + both + " both believed they led " + older.group + ", and the older one's client "
							+ older.member.node().name + " reported no SUSPENDED or LOST within one session timeout ("
							+ millis(this.session) + " ms) of the newer one's start");
		}
		else if (older.end() > began + this.session) {
			violation(older, newer.startSeq,
					"two leaders: " + both + " both believed they led " + older.group + ": the older one for "
							+ millis(older.end() - began) + " ms after the newer one began to lead, more than one"
							+ " session timeout (" + millis(this.session) + " ms)");
		}
		else {
			this.excusedOverlaps++;
		}
	}

	private void judgeWrite(FencedLocks.Rejection rejection) {
		HoldRecord stale = rejection.hold();
		HoldRecord newer = rejection.newer();
		String group = stale.lock.substring(stale.lock.indexOf('/') + 1);
		long began = Math.min(newer.grantedNanos, this.leads.firstTold(newer.actor, group, newer.token));
		long tenure = Math.min(stale.grantedNanos, this.leads.firstTold(stale.actor, group, stale.token));
		Session session = session(this.nodes.get(stale.client), tenure);
		String what = "a write of " + stale.actor + " with epoch " + stale.token + " at "
				+ this.history.millis(rejection.nanos()) + " ms was turned away: the store had seen epoch "
				+ newer.token + " of " + newer.actor + ", leading since " + this.history.millis(began) + " ms";
		if (session.lost() == Long.MAX_VALUE) {
			violation(stale, rejection.seq(),
					"stale leader write: " + what + ", and the writer's session had not" + " ended: its client "
							+ this.nodes.get(stale.client).name + " reported no LOST after its tenure" + " began");
		}
		else if (session.trouble() > began + this.session) {
			violation(stale, rejection.seq(),
					"stale leader write: " + what + ", and the writer's client " + this.nodes.get(stale.client).name
							+ " had reported no SUSPENDED or LOST within one session" + " timeout ("
							+ millis(this.session) + " ms) of that: it led with an old epoch while connected");
		}
		else if (rejection.nanos() > began + this.session) {
			violation(stale, rejection.seq(),
					"stale leader write: " + what + ": " + millis(rejection.nanos() - began)
							+ " ms after the newer leader began, more than one session timeout (" + millis(this.session)
							+ " ms)");
		}
		else {
			this.excusedWrites++;
		}
	}

	/**
	 * What a node's client reported of the session it had at a given time, after its last
	 * connection before then: its report that the session ended ({@code LOST}), and its
	 * first report of trouble ({@code SUSPENDED} or {@code LOST}) since it last connected
	 * again in that session; {@link Long#MAX_VALUE} for what it did not report.
	 */
	private static Session session(Node node, long at) {
		List<Node.Change> changes = node.changes();
		long connected = Long.MIN_VALUE;
		for (Node.Change change : changes) {
			if (change.nanos() <= at && connects(change)) {
				connected = change.nanos();
			}
		}
		long trouble = Long.MAX_VALUE;
		for (Node.Change change : changes) {
			if (change.nanos() < connected || (change.nanos() == connected && connects(change))) {
				continue;
			}
			if (connects(change)) {
				// Connected again in the same session (a tenure in doubt under the LOST
				// policy goes on): its trouble is what comes after.
				trouble = Long.MAX_VALUE;
				continue;
			}
			if (change.state() == ConnectionState.SUSPENDED || change.state() == ConnectionState.LOST) {
				trouble = Math.min(trouble, change.nanos());
			}
			if (change.state() == ConnectionState.LOST) {
				return new Session(trouble, change.nanos());
			}
		}
		return new Session(trouble, Long.MAX_VALUE);
	}

	private static boolean connects(Node.Change change) {
		return change.state() == ConnectionState.CONNECTED || change.state() == ConnectionState.RECONNECTED;
	}

	/** What a client reported of one session: its first trouble, and its end. */
	private record Session(long trouble, long lost) {
	}

	private static long millis(long nanos) {
		return java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(nanos);
	}

	/** Report once per tenure or write. */
	private void violation(Object what, long seq, String text) {
		if (!this.reported.add(what)) {
			return;
		}
		History.Event event = this.history.events().get((int) seq - 1);
		String lock = event.lock();
		this.violations.add(new CheckerRun.Violation(event.nanos(), "op " + event.op() + " (" + event.actor()
				+ "), event #" + seq + ": " + text + "\n" + this.history.excerpt(seq, lock, 12)));
	}

	/** A line for the run's summary. */
	String summary() {
		List<Leads.Lead> all = this.leads.leads();
		Map<String, Long> tenures = new TreeMap<>(
				all.stream().collect(Collectors.groupingBy((lead) -> lead.group, Collectors.counting())));
		Map<String, Long> byMember = new TreeMap<>(
				all.stream().collect(Collectors.groupingBy((lead) -> lead.member.name(), Collectors.counting())));
		return "leadership: tenures by group " + tenures + ", by member " + byMember + ", " + this.excusedOverlaps
				+ " overlaps and " + this.excusedWrites + " stale writes of leaders that had lost their session";
	}

}
