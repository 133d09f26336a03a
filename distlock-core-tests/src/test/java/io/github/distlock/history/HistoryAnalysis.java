package io.github.distlock.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.state.ConnectionState;

import io.github.distlock.history.HoldRecord.Access;

/**
 * Judges what the fenced store recorded, once the run is over. Two holds that conflict
 * may both be inside the store only if the older one (the lower token: the hold ZooKeeper
 * granted first) was lost by then; the store may turn an operation away only if its hold
 * was lost by then. "Lost by then" is what can be proven without trusting the engine: the
 * holder's handle or the engine's loss listener had reported it, or a fault that ends
 * sessions had begun on the hold's node (a session ended on the server, a server or the
 * quorum stopped, the relay paused or dropped) and the node had not yet reconnected after
 * it, or its connection was suspended or lost around then for another reason. A hold is
 * never excused for what happened before it was in doubt: a holder whose hold was
 * reported lost is excluded only from the part after the loss.
 * <p>
 * The doubt a fault or a connection event casts on a node lasts from the fault's start (a
 * connection event's time minus one session timeout: the server may have ended the
 * session that long before the client noticed) until the node has reconnected after it,
 * plus one second for the engine to act on the news; at most two session timeouts after
 * the fault's end when no reconnection is seen. A re-entry or downgrade asked for after
 * the session of the hold it enters had been ended on the server is never in doubt: it
 * must not have been granted at all.
 * <p>
 * The leadership workload's writes are judged by {@link LeadershipAnalysis}, by its own,
 * stricter rule.
 */
final class HistoryAnalysis {

	private static final long MARGIN = Duration.ofSeconds(1).toNanos();

	private final Map<Integer, List<long[]>> doubts = new HashMap<>();

	private final List<CheckerRun.Violation> violations = new ArrayList<>();

	private final Set<Integer> reported = new HashSet<>();

	private final History history;

	private final List<FaultInjector.SessionEnd> sessionEnds = new ArrayList<>();

	private final Map<Integer, HoldRecord> holdsById = new HashMap<>();

	private final Map<String, List<Long>> starts = new HashMap<>();

	private int excusedOverlaps;

	private int excusedRejections;

	HistoryAnalysis(History history, List<Node> nodes, List<FaultInjector.Window> faults, Duration session) {
		this.history = history;
		long sessionNanos = session.toNanos();
		for (Node node : nodes) {
			List<long[]> windows = new ArrayList<>();
			List<Node.Change> changes = node.changes();
			for (FaultInjector.Window fault : faults) {
				if (fault.nodes().contains(node.index)) {
					windows.add(new long[] { fault.from(), reconnected(changes, fault.to(), sessionNanos) });
				}
			}
			for (Node.Change change : changes) {
				if (change.state() == ConnectionState.SUSPENDED || change.state() == ConnectionState.LOST) {
					windows.add(new long[] { change.nanos() - sessionNanos,
							reconnected(changes, change.nanos(), sessionNanos) });
				}
			}
			this.doubts.put(node.index, windows);
		}
	}

	private static long reconnected(List<Node.Change> changes, long after, long sessionNanos) {
		for (Node.Change change : changes) {
			if (change.nanos() >= after && change.nanos() <= after + 2 * sessionNanos
					&& (change.state() == ConnectionState.RECONNECTED || change.state() == ConnectionState.CONNECTED)) {
				return change.nanos() + MARGIN;
			}
		}
		return after + 2 * sessionNanos + MARGIN;
	}

	/**
	 * Tell which sessions were ended on the server, and when: a re-entry or downgrade
	 * asked for after the session of the hold it enters was gone on the server must never
	 * be granted, and is never excused by doubt (see {@link #grantedDead}).
	 */
	void sessionsEnded(List<FaultInjector.SessionEnd> ends, List<HoldRecord> holds) {
		this.sessionEnds.addAll(ends);
		for (HoldRecord hold : holds) {
			this.holdsById.put(hold.id, hold);
		}
		for (History.Event event : this.history.events()) {
			if (event.type() == History.Type.START && event.lock() != null) {
				this.starts
					.computeIfAbsent(event.actor() + "#" + event.op() + "#" + event.lock(), (key) -> new ArrayList<>())
					.add(event.nanos());
			}
		}
	}

	/**
	 * Whether a hold entered another (a re-entry or a downgrade) that was granted before
	 * its node's session was ended on the server, and was asked for only once that
	 * session was gone: the hold it enters was certainly lost then, so it must not have
	 * been granted (a double grant, if another holder took the lock meanwhile).
	 */
	boolean grantedDead(HoldRecord hold) {
		if (hold.family == hold.id) {
			return false;
		}
		HoldRecord outer = this.holdsById.get(hold.family);
		if (outer == null) {
			return false;
		}
		long asked = Long.MIN_VALUE;
		for (long start : this.starts.getOrDefault(hold.actor + "#" + hold.op + "#" + hold.lock, List.of())) {
			if (start <= hold.grantedNanos) {
				asked = Math.max(asked, start);
			}
		}
		for (FaultInjector.SessionEnd end : this.sessionEnds) {
			if (end.node() == hold.client && outer.grantedNanos < end.from() && end.to() < asked) {
				return true;
			}
		}
		return false;
	}

	/** Whether a hold was provably in doubt (possibly lost) at a time. */
	boolean doubtful(HoldRecord hold, long nanos) {
		if (grantedDead(hold)) {
			return false;
		}
		if (hold.lostNanos <= nanos) {
			return true;
		}
		for (long[] window : this.doubts.getOrDefault(hold.client, List.of())) {
			if (window[0] <= nanos && window[1] >= hold.grantedNanos) {
				return true;
			}
		}
		return false;
	}

	/** Judge every overlap and every rejection the store recorded. */
	List<CheckerRun.Violation> judge(FencedLocks store) {
		for (HoldRecord hold : this.holdsById.values()) {
			if (hold.heldAfterReportNanos != Long.MAX_VALUE && this.reported.add(hold.id)) {
				// The history around the claim.
				long seq = this.history.events()
					.stream()
					.filter((event) -> event.nanos() <= hold.heldAfterReportNanos)
					.mapToLong(History.Event::seq)
					.max()
					.orElse(1);
				this.violations.add(new CheckerRun.Violation(hold.heldAfterReportNanos,
						"op " + hold.op + " (" + hold.actor + "), event #" + seq + ": state after loss: " + hold
								+ " answered HELD to a state check asked "
								+ TimeUnit.NANOSECONDS.toMillis(hold.heldAfterReportNanos - hold.reportedNanos)
								+ " ms after the loss listener had reported it lost (LOST is final)\n"
								+ this.history.excerpt(seq, hold.lock, 12)));
			}
		}
		for (FencedLocks.Overlap overlap : store.overlaps()) {
			HoldRecord entering = overlap.entering();
			if (LeadershipAnalysis.isLeader(entering)) {
				continue;
			}
			if (entering.access == Access.PERMIT) {
				List<HoldRecord> all = new ArrayList<>(overlap.inside());
				all.add(entering);
				long certain = all.stream().filter((hold) -> !doubtful(hold, overlap.nanos())).count();
				if (certain > entering.permits) {
					violation(overlap.seq(), entering, "permits exceeded: " + certain + " holds of " + entering.permits
							+ " permits inside at once, none of them lost: " + all);
				}
				else {
					this.excusedOverlaps++;
				}
				continue;
			}
			for (HoldRecord inside : overlap.inside()) {
				if (inside.token == entering.token) {
					violation(overlap.seq(), entering,
							"token order: two holds with one token inside at once: " + entering + " and " + inside);
				}
				else if (inside.token < entering.token) {
					if (!doubtful(inside, overlap.nanos())) {
						violation(overlap.seq(), entering,
								"overlap: conflicting holds inside at once: " + entering + " entered while " + inside
										+ " was inside, granted earlier and not lost" + deadNote(inside));
					}
					else {
						this.excusedOverlaps++;
					}
				}
				else {
					// The entering hold is the older one: the store turned it away,
					// judged below.
					this.excusedOverlaps += doubtful(entering, overlap.nanos()) ? 1 : 0;
				}
			}
		}
		for (FencedLocks.Rejection rejection : store.rejections()) {
			if (LeadershipAnalysis.isLeader(rejection.hold())) {
				continue;
			}
			if (!doubtful(rejection.hold(), rejection.nanos())) {
				violation(rejection.seq(), rejection.hold(),
						"token order: " + rejection.hold() + " was turned away by the store, which had" + " seen "
								+ rejection.newer() + ", while it was held and not lost (successive holders'"
								+ " tokens must increase)" + deadNote(rejection.hold()));
			}
			else {
				this.excusedRejections++;
			}
		}
		return this.violations;
	}

	private String deadNote(HoldRecord hold) {
		return grantedDead(hold) ? "; " + hold + " was asked for after the session of the hold it enters had"
				+ " ended on the server, and granted all the same (a double grant)" : "";
	}

	/** Report what one hold did wrong, once per hold. */
	private void violation(long seq, HoldRecord hold, String text) {
		if (this.reported.add(hold.id)) {
			History.Event event = this.history.events().get((int) seq - 1);
			this.violations.add(new CheckerRun.Violation(event.nanos(), "op " + hold.op + " (" + hold.actor
					+ "), event #" + seq + ": " + text + "\n" + this.history.excerpt(seq, hold.lock, 12)));
		}
	}

	int excusedOverlaps() {
		return this.excusedOverlaps;
	}

	int excusedRejections() {
		return this.excusedRejections;
	}

}
