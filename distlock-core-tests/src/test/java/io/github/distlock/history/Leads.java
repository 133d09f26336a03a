package io.github.distlock.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.distlock.core.LockKind;

/**
 * The "I lead" intervals of the leadership workload, as the members were told them: from
 * the signal that a member leads (with its epoch) to the signal that it no longer does,
 * or to its own leave or relinquish, whichever came first (a member that gives its tenure
 * up stops acting as leader when it decides to, before its listener hears of it; the
 * engine ends the tenure before it deletes the node, so nobody else can lead before).
 * Checks at once that a distlock member is told once per tenure: never told it leads
 * while a tenure is open, never told a tenure ended that was not open or had another
 * epoch. Judged after the run by {@link LeadershipAnalysis}.
 */
final class Leads {

	private final CheckerRun run;

	private final Map<String, Lead> open = new HashMap<>();

	private final List<Lead> leads = new ArrayList<>();

	/**
	 * When a member gave up (left, relinquished) a tenure, by member, group and epoch.
	 */
	private final Map<String, Long> givenUp = new HashMap<>();

	private final Map<String, Integer> families = new HashMap<>();

	/** The asks a tenure answered that it still holds, by member, group and epoch. */
	private final Map<String, List<Ask>> held = new HashMap<>();

	Leads(CheckerRun run) {
		this.run = run;
	}

	static String key(String group) {
		return CheckerRun.key(LockKind.LEADER, group);
	}

	private static String of(LeaderMember member, String group) {
		return member.name() + "|" + group;
	}

	private static String of(String member, String group, long epoch) {
		return member + "|" + group + "|" + epoch;
	}

	/** The member was told it leads the group with the given epoch. */
	synchronized void granted(LeaderMember member, String group, long epoch) {
		History.Event event = this.run.history()
			.record(History.Type.LEADS, member.name(), 0, key(group), epoch,
					"told it leads " + group + ((epoch > 0) ? "" : " (its latch node already gone)"));
		Lead previous = this.open.remove(of(member, group));
		if (previous != null) {
			previous.end(event.nanos(), event.seq());
			if (member.distlock()) {
				this.run.violation(member.name(), 0, key(group), "told once: told it leads " + group + " with epoch "
						+ epoch + " while its tenure of epoch " + previous.epoch + " had not been revoked");
			}
		}
		Lead lead = new Lead(member, group, epoch, event.nanos(), event.seq());
		Long gaveUp = this.givenUp.get(of(member.name(), group, epoch));
		if (gaveUp != null) {
			// Told late: the member had given this tenure up already.
			lead.start = Math.min(lead.start, gaveUp);
			lead.gaveUp = gaveUp;
		}
		this.open.put(of(member, group), lead);
		this.leads.add(lead);
	}

	/**
	 * The member was told it no longer leads the group ({@code epoch} 0: a raw latch,
	 * which does not say).
	 */
	synchronized void revoked(LeaderMember member, String group, long epoch) {
		History.Event event = this.run.history()
			.record(History.Type.REVOKED, member.name(), 0, key(group), epoch, "told it no longer leads " + group);
		Lead lead = this.open.remove(of(member, group));
		if (lead == null) {
			if (member.distlock()) {
				this.run.violation(member.name(), 0, key(group), "told once: told its tenure of " + group + " (epoch "
						+ epoch + ") ended, but no tenure was open (told twice, or never told it led)");
			}
			return;
		}
		lead.end(event.nanos(), event.seq());
		if (member.distlock() && lead.epoch != epoch) {
			this.run.violation(member.name(), 0, key(group), "told once: told its tenure of " + group + " with epoch "
					+ epoch + " ended, but the open tenure has epoch " + lead.epoch);
		}
	}

	/**
	 * The member gives up its tenure of the given epoch (leaves or relinquishes): from
	 * now on it does not act as the leader with it.
	 */
	synchronized void ended(LeaderMember member, String group, long epoch, String how) {
		History.Event event = this.run.history()
			.record(History.Type.MEMBERSHIP, member.name(), 0, key(group), epoch, how + " while leading");
		this.givenUp.putIfAbsent(of(member.name(), group, epoch), event.nanos());
		Lead lead = this.open.get(of(member, group));
		if (lead != null && lead.epoch == epoch) {
			lead.gaveUp = Math.min(lead.gaveUp, event.nanos());
		}
	}

	/**
	 * The member's tenure of the given epoch, asked before work, answered that it still
	 * holds: the ask began and was answered at the given times.
	 */
	synchronized void held(LeaderMember member, String group, long epoch, long began, long answered) {
		this.held.computeIfAbsent(of(member.name(), group, epoch), (key) -> new ArrayList<>())
			.add(new Ask(began, answered));
	}

	/** The asks the member's tenure of that epoch answered that it still holds. */
	synchronized List<Ask> held(String member, String group, long epoch) {
		return List.copyOf(this.held.getOrDefault(of(member, group, epoch), List.of()));
	}

	/**
	 * The store family of a member's writes with one epoch: a tenure's writes, and those
	 * of the same node leading again after a reconnection, are one holder's.
	 */
	synchronized int family(String member, String group, long epoch) {
		return this.families.computeIfAbsent(of(member, group, epoch), (key) -> -(1 + this.families.size()));
	}

	/** When the member was first told it leads the group with that epoch, if ever. */
	synchronized long firstTold(String member, String group, long epoch) {
		long first = Long.MAX_VALUE;
		for (Lead lead : this.leads) {
			if (lead.member.name().equals(member) && lead.group.equals(group) && lead.epoch == epoch) {
				first = Math.min(first, lead.start);
			}
		}
		return first;
	}

	synchronized List<Lead> leads() {
		return List.copyOf(this.leads);
	}

	synchronized List<Lead> open() {
		return List.copyOf(this.open.values());
	}

	/** An ask of a tenure: when it began and when it was answered. */
	record Ask(long began, long answered) {
	}

	/** One "I lead" interval. */
	static final class Lead {

		final LeaderMember member;

		final String group;

		final long epoch;

		final long startSeq;

		long start;

		long end = Long.MAX_VALUE;

		long endSeq;

		long gaveUp = Long.MAX_VALUE;

		Lead(LeaderMember member, String group, long epoch, long start, long startSeq) {
			this.member = member;
			this.group = group;
			this.epoch = epoch;
			this.start = start;
			this.startSeq = startSeq;
		}

		void end(long nanos, long seq) {
			this.end = Math.min(nanos, this.gaveUp);
			this.endSeq = seq;
		}

		/** Where it ends: told so, or given up, whichever came first. */
		long end() {
			return Math.min(this.end, this.gaveUp);
		}

		String describe(History history) {
			return this.member.name() + " (epoch " + this.epoch + ", told at " + history.millis(this.start) + " ms"
					+ ((this.end() != Long.MAX_VALUE) ? ", until " + history.millis(this.end()) + " ms"
							: ", still open")
					+ ")";
		}

	}

}
