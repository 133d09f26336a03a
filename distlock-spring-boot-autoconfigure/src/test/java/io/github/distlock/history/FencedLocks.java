package io.github.distlock.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.distlock.history.HoldRecord.Access;

/**
 * The store every hold's body writes to, one entry per lock: it fences by token (the
 * highest token any hold used, and the highest an exclusive hold used; an exclusive hold
 * must carry at least the first, a reader at least the second; a different hold with the
 * very same token is turned away too) and counts who is inside. What it turns away and
 * which holds were inside together is recorded; whether that was allowed (one of them was
 * lost) is decided after the run, by {@link HistoryAnalysis}.
 * <p>
 * Leases of a semaphore of several permits are not fenced against each other (they are
 * concurrent holders, and enter in any order); only their number is counted.
 */
final class FencedLocks {

	private final History history;

	private final Map<String, Entry> entries = new HashMap<>();

	private final List<Rejection> rejections = new ArrayList<>();

	private final List<Overlap> overlaps = new ArrayList<>();

	FencedLocks(History history) {
		this.history = history;
	}

	/** A hold begins its body: fenced, and counted inside. */
	synchronized void enter(HoldRecord hold) {
		Entry entry = this.entries.computeIfAbsent(hold.lock, (key) -> new Entry());
		fence(entry, hold, "enter");
		List<HoldRecord> conflicting = new ArrayList<>();
		if (hold.access == Access.PERMIT) {
			if (entry.inside.size() + 1 > hold.permits) {
				conflicting.addAll(entry.inside);
			}
		}
		else {
			entry.inside.stream().filter(hold::conflictsWith).forEach(conflicting::add);
		}
		entry.inside.add(hold);
		History.Event event = this.history.record(History.Type.ENTER, hold.actor, hold.op, hold.lock, hold.token,
				"hold " + hold.id + " " + hold.access + ((hold.family != hold.id) ? " in hold " + hold.family : "")
						+ " (" + entry.inside.size() + " inside)");
		if (!conflicting.isEmpty()) {
			this.history.record(History.Type.OVERLAP, hold.actor, hold.op, hold.lock, hold.token,
					"hold " + hold.id + " entered beside " + conflicting);
			this.overlaps.add(new Overlap(hold, List.copyOf(conflicting), event.seq(), event.nanos()));
		}
	}

	/** A hold ends its body: fenced, and no longer inside. */
	synchronized void exit(HoldRecord hold) {
		Entry entry = this.entries.get(hold.lock);
		fence(entry, hold, "exit");
		entry.inside.remove(hold);
		this.history.record(History.Type.EXIT, hold.actor, hold.op, hold.lock, hold.token, "hold " + hold.id);
	}

	private void fence(Entry entry, HoldRecord hold, String what) {
		if (hold.access == Access.PERMIT && hold.permits > 1) {
			return;
		}
		boolean exclusive = hold.access == Access.EXCLUSIVE;
		HoldRecord limit = exclusive ? entry.highestAny : entry.highestExclusive;
		if (limit != null && (hold.token < limit.token || (hold.token == limit.token && hold.family != limit.family))) {
			History.Event event = this.history.record(History.Type.REJECTED, hold.actor, hold.op, hold.lock, hold.token,
					what + " of hold " + hold.id + " turned away: the store has seen token " + limit.token + " of "
							+ limit);
			this.rejections.add(new Rejection(hold, limit, event.seq(), event.nanos()));
			return;
		}
		if (entry.highestAny == null || hold.token >= entry.highestAny.token) {
			entry.highestAny = hold;
		}
		if (exclusive && (entry.highestExclusive == null || hold.token >= entry.highestExclusive.token)) {
			entry.highestExclusive = hold;
		}
	}

	synchronized List<Rejection> rejections() {
		return List.copyOf(this.rejections);
	}

	synchronized List<Overlap> overlaps() {
		return List.copyOf(this.overlaps);
	}

	/** Number of holds inside, all locks together. */
	synchronized int inside() {
		return this.entries.values().stream().mapToInt((entry) -> entry.inside.size()).sum();
	}

	/**
	 * An operation turned away: its token was lower than one the store had seen (or the
	 * same, from another hold).
	 */
	record Rejection(HoldRecord hold, HoldRecord newer, long seq, long nanos) {
	}

	/** A hold entered while conflicting holds (or all permits) were inside. */
	record Overlap(HoldRecord entering, List<HoldRecord> inside, long seq, long nanos) {
	}

	private static final class Entry {

		private HoldRecord highestAny;

		private HoldRecord highestExclusive;

		private final List<HoldRecord> inside = new ArrayList<>();

	}

}
