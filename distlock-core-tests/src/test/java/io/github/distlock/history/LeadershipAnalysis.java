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
import org.jspecify.annotations.Nullable;

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
 * other began to lead, and its tenure answered no ask begun after every listener of its
 * client had handled that first report ({@link Dispatches}) that it still held. The
 * engine ends the tenure or puts it in doubt in its connection listener, under either
 * policy; it tells the end later, on a thread of its own, so the told end is not judged
 * against the clock. The other leads only once the older node is gone on the server, so
 * that moment is the latest at which the older one can have lost its session.</li>
 * <li><b>Epoch order.</b> Of two tenures of different members, the one with the smaller
 * epoch never begins after the other has ended; two members never lead with one epoch; a
 * member's own epochs never go back.</li>
 * <li><b>Stale writes.</b> Every leader writes what it does to the fenced store with its
 * epoch, after asking its tenure whether it still leads. A write with a smaller epoch
 * than one the store has seen from another member (turned away by the store) is excused
 * only by the same rule: the writer's client reported its session {@code LOST}, its first
 * report of trouble came within one session timeout of the moment the newer leader began
 * to lead, and its tenure answered no ask begun after every listener of its client had
 * handled that report that it still held (how late the write reached the store is what
 * the fence is for).</li>
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
		Leads.Ask ask = heldAfterTrouble(session, older.member.name(), older.group, older.epoch);
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
		else if (ask != null) {
			violation(older, newer.startSeq,
					"two leaders: " + both + " both believed they led " + older.group + ": the older one's tenure"
							+ " answered that it still held to an ask begun at " + this.history.millis(ask.began())
							+ " ms, after every listener of its client " + older.member.node().name
							+ " had handled its report of trouble (" + session.describe(this.history) + ")");
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
		Leads.Ask ask = heldAfterTrouble(session, stale.actor, group, stale.token);
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
		else if (ask != null) {
			violation(stale, rejection.seq(),
					"stale leader write: " + what + ": its tenure answered that it still held to an ask begun at "
							+ this.history.millis(ask.began()) + " ms, after every listener of its client "
							+ this.nodes.get(stale.client).name + " had handled its report of trouble ("
							+ session.describe(this.history) + ")");
		}
		else {
			this.excusedWrites++;
		}
	}

	/**
	 * The first ask of a member's tenure that it still holds begun after every listener
	 * of its client had handled the session's first report of trouble ({@code null} if
	 * none). From then on the tenure is over or in doubt, not leading for new work; a
	 * distlock member's for good, as the session is lost and with it the node of that
	 * epoch. A raw Curator latch is judged only until its listeners are handed the next
	 * connection (Curator's latch may find its node of the lost session still first, as a
	 * server keeps that session a while).
	 */
	private Leads.@Nullable Ask heldAfterTrouble(Session session, String member, String group, long epoch) {
		if (session.handled() == Long.MAX_VALUE) {
			return null;
		}
		boolean distlock = this.leads.leads()
			.stream()
			.anyMatch((lead) -> lead.member.name().equals(member) && lead.member.distlock());
		long until = distlock ? Long.MAX_VALUE : session.connects();
		for (Leads.Ask ask : this.leads.held(member, group, epoch)) {
			if (ask.began() > session.handled() && ask.answered() < until) {
				return ask;
			}
		}
		return null;
	}

	/**
	 * What a node's client reported of the session it had at a given time, after its last
	 * connection before then: its report that the session ended ({@code LOST}), and its
	 * first report of trouble ({@code SUSPENDED} or {@code LOST}) since it last connected
	 * again in that session, with when every listener of the client had handled that
	 * report and when they were handed the client's next connection;
	 * {@link Long#MAX_VALUE} for what it did not report.
	 */
	static Session session(Node node, long at) {
		List<Node.Change> changes = node.changes();
		long connected = Long.MIN_VALUE;
		for (Node.Change change : changes) {
			if (change.nanos() <= at && connects(change)) {
				connected = change.nanos();
			}
		}
		Node.Change trouble = null;
		for (Node.Change change : changes) {
			if (change.nanos() < connected || (change.nanos() == connected && connects(change))) {
				continue;
			}
			if (connects(change)) {
				// Connected again in the same session (a tenure in doubt under the LOST
				// policy goes on): its trouble is what comes after.
				trouble = null;
				continue;
			}
			if (trouble == null
					&& (change.state() == ConnectionState.SUSPENDED || change.state() == ConnectionState.LOST)) {
				trouble = change;
			}
			if (change.state() == ConnectionState.LOST) {
				return handled(node, trouble, change.nanos());
			}
		}
		return (trouble != null) ? handled(node, trouble, Long.MAX_VALUE)
				: new Session(Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);
	}

	/**
	 * The session of a first report of trouble: the listeners saw it while it was handed
	 * to them, so it is the event whose hand-over spans the time it was seen.
	 */
	private static Session handled(Node node, Node.Change trouble, long lost) {
		List<Dispatches.Dispatch> dispatches = node.dispatches();
		long handled = Long.MAX_VALUE;
		long connects = Long.MAX_VALUE;
		for (Dispatches.Dispatch dispatch : dispatches) {
			if (handled == Long.MAX_VALUE) {
				if (dispatch.state() == trouble.state() && dispatch.began() <= trouble.nanos()
						&& trouble.nanos() <= dispatch.handled()) {
					handled = dispatch.handled();
				}
			}
			else if (dispatch.state() == ConnectionState.CONNECTED || dispatch.state() == ConnectionState.RECONNECTED) {
				connects = dispatch.began();
				break;
			}
		}
		return new Session(trouble.nanos(), lost, handled, connects);
	}

	private static boolean connects(Node.Change change) {
		return change.state() == ConnectionState.CONNECTED || change.state() == ConnectionState.RECONNECTED;
	}

	/**
	 * What a client reported of one session: its first trouble, and its end; when all its
	 * listeners had handled that trouble, and when they were handed the next connection.
	 */
	record Session(long trouble, long lost, long handled, long connects) {

		String describe(History history) {
			return "first reported at " + history.millis(this.trouble) + " ms, handled by "
					+ history.millis(this.handled) + " ms" + ((this.connects != Long.MAX_VALUE)
							? ", connected again at " + history.millis(this.connects) + " ms" : "");
		}

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
