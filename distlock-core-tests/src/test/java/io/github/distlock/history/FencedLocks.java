package io.github.distlock.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.distlock.history.HoldRecord.Access;

/**
 * The store every hold's body writes to, one entry per lock: it fences by token and
 * counts who is inside. An exclusive hold's operation is turned away if another hold used
 * the same or a higher token before, a reader's if another exclusive hold did; "another"
 * means of another family: a hold's own re-entries and downgrades are not its successors.
 * What it turns away and which holds were inside together is recorded; whether that was
 * allowed (one of them was lost) is decided after the run, by {@link HistoryAnalysis}.
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

	/**
	 * A hold leaves without writing (its holder learned it no longer holds): no longer
	 * inside, nothing fenced.
	 */
	synchronized void abandon(HoldRecord hold, String why) {
		this.entries.get(hold.lock).inside.remove(hold);
		this.history.record(History.Type.EXIT, hold.actor, hold.op, hold.lock, hold.token,
				"hold " + hold.id + " " + why);
	}

	private void fence(Entry entry, HoldRecord hold, String what) {
		if (hold.access == Access.PERMIT && hold.permits > 1) {
			return;
		}
		boolean exclusive = hold.access == Access.EXCLUSIVE;
		HoldRecord limit = (exclusive ? entry.any : entry.exclusive).highestOutside(hold.family);
		if (limit != null && hold.token <= limit.token) {
			History.Event event = this.history.record(History.Type.REJECTED, hold.actor, hold.op, hold.lock, hold.token,
					what + " of hold " + hold.id + " turned away: the store has seen token " + limit.token + " of "
							+ limit);
			this.rejections.add(new Rejection(hold, limit, event.seq(), event.nanos()));
			return;
		}
		entry.any.accept(hold);
		if (exclusive) {
			entry.exclusive.accept(hold);
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

		/** Highest tokens of all holds. */
		private final Highest any = new Highest();

		/** Highest tokens of exclusive holds. */
		private final Highest exclusive = new Highest();

		private final List<HoldRecord> inside = new ArrayList<>();

	}

	/**
	 * The holds that used the two highest tokens, of two different families: enough to
	 * tell the highest token of any family but a given one (a family's own re-entries and
	 * downgrades are not its successors).
	 */
	private static final class Highest {

		private HoldRecord first;

		private HoldRecord second;

		void accept(HoldRecord hold) {
			if (this.first == null) {
				this.first = hold;
			}
			else if (hold.family == this.first.family) {
				if (hold.token > this.first.token) {
					this.first = hold;
				}
			}
			else if (hold.token > this.first.token) {
				this.second = this.first;
				this.first = hold;
			}
			else if (this.second == null || hold.token > this.second.token) {
				this.second = hold;
			}
		}

		HoldRecord highestOutside(int family) {
			if (this.first == null) {
				return null;
			}
			return (this.first.family != family) ? this.first : this.second;
		}

	}

}
