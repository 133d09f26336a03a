package io.github.distlock.history;

import java.time.Duration;
import java.util.Random;

/**
 * The thread of one {@link LeaderMember} in the leadership workload, drawing its
 * operations from its own seeded {@link Random} (operation n is the same in every run
 * with the seed): work under the tenure of a group it leads (written to the fenced store
 * with the epoch, as a leader fences what it writes), relinquish, leave, join again, wait
 * for leadership. Some work pauses for long (a GC, say) while the tenure is open. In the
 * run's calm phase ({@link CheckerRun#calm()}) it only joins the groups it is not in and
 * works under the tenures it has.
 */
final class LeaderActor implements Runnable {

	private static final Duration[] WAITS = { Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1),
			Duration.ofSeconds(2) };

	private final CheckerRun run;

	private final LeaderMember member;

	private final Leads leads;

	private final long seed;

	private Random random;

	LeaderActor(CheckerRun run, LeaderMember member, Leads leads, long seed) {
		this.run = run;
		this.member = member;
		this.leads = leads;
		this.seed = seed;
	}

	@Override
	public void run() {
		while (!this.run.stopping()) {
			int op = this.run.nextOp(this.member.name());
			this.random = new Random(mix(this.seed * 1_000_003L + op));
			try {
				step(op);
			}
			catch (Throwable ex) {
				this.run.violation(this.member.name(), op, null,
						"unexpected error: the leadership operation failed: " + CheckerRun.trace(ex));
			}
		}
	}

	/**
	 * Spread neighbouring seeds apart (SplitMix64's finalizer): the first draws of
	 * {@link Random}s seeded with neighbouring numbers are alike, and a first
	 * {@code nextInt(2)} would pick the same group for every operation.
	 */
	private static long mix(long seed) {
		long z = seed;
		z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
		z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
		return z ^ (z >>> 31);
	}

	private void step(int op) throws Exception {
		String group = CheckerRun.group(this.random.nextInt(CheckerRun.GROUPS));
		int choice = this.random.nextInt(100);
		if (this.run.calm()) {
			// The calm phase: join, and work while leading; nothing else.
			if (!this.member.joined(group)) {
				membership(op, group, "joins");
				this.member.join(group);
			}
			else if (this.member.leads(group)) {
				work(op, group);
			}
		}
		else if (!this.member.joined(group)) {
			if (choice < 70) {
				membership(op, group, "joins");
				this.member.join(group);
			}
			else if (choice < 80 && this.member.distlock()) {
				// Waiting for leadership joins too.
				await(op, group);
			}
		}
		else if (this.member.leads(group)) {
			if (choice < 70) {
				work(op, group);
			}
			else if (choice < 90) {
				membership(op, group, "relinquishes");
				this.member.relinquish(group);
			}
			else {
				membership(op, group, "leaves");
				this.member.leave(group);
			}
		}
		else if (choice < 40) {
			await(op, group);
		}
		else if (choice < 50) {
			membership(op, group, "leaves");
			this.member.leave(group);
		}
		else {
			// Work if it leads by now.
			work(op, group);
		}
		DistlockActor.park(20 + this.random.nextInt(120));
	}

	private void membership(int op, String group, String what) {
		this.run.history().record(History.Type.MEMBERSHIP, this.member.name(), op, Leads.key(group), 0, what);
	}

	/** Work under the tenure, if it leads: a fenced write on entry and on exit. */
	private void work(int op, String group) {
		LeaderMember.Tenure tenure = this.member.tenure(group);
		boolean pause = this.random.nextInt(100) < 3;
		long pauseMillis = pause ? 800 + this.random.nextInt(1700) : this.random.nextInt(20);
		if (tenure == null) {
			return;
		}
		try (tenure) {
			long epoch = tenure.epoch();
			HoldRecord hold = this.run.openLeaderWrite(op, this.member.name(), this.member.node().index,
					Leads.key(group), epoch, this.leads.family(this.member.name(), group, epoch));
			if (!held(tenure, group, epoch)) {
				this.run.released(hold, "no longer leads before writing");
				return;
			}
			this.run.store().enter(hold);
			if (pause) {
				this.run.pausing(this.member.node().index, true);
			}
			try {
				DistlockActor.park(pauseMillis);
			}
			finally {
				if (pause) {
					this.run.pausing(this.member.node().index, false);
				}
			}
			// A careful leader asks before it writes again.
			if (held(tenure, group, epoch)) {
				this.run.store().exit(hold);
			}
			else {
				this.run.store().abandon(hold, "no longer leads: not written");
			}
			this.run.released(hold, "leader write");
		}
	}

	/** Ask the tenure whether it still holds, and tell {@link Leads} when it said so. */
	private boolean held(LeaderMember.Tenure tenure, String group, long epoch) {
		long began = System.nanoTime();
		boolean held = tenure.held();
		if (held) {
			this.leads.held(this.member, group, epoch, began, System.nanoTime());
		}
		return held;
	}

	private void await(int op, String group) throws Exception {
		Duration wait = WAITS[this.random.nextInt(WAITS.length)];
		this.run.history()
			.record(History.Type.START, this.member.name(), op, Leads.key(group), 0,
					"waits to lead, at most " + wait.toMillis() + " ms");
		boolean leads = this.member.await(group, wait);
		this.run.history()
			.record(History.Type.ENDED, this.member.name(), op, Leads.key(group), 0, leads ? "leads" : "does not lead");
	}

}
