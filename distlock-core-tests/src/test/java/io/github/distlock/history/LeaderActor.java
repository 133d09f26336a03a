package io.github.distlock.history;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

import io.github.distlock.core.LockAcquisitionException;

/**
 * The thread of one {@link LeaderMember} in the leadership workload, drawing its
 * operations from its own seeded {@link Random} (operation n is the same in every run
 * with the seed): work under the tenure of a group it leads (written to the fenced store
 * with the epoch, as a leader fences what it writes), relinquish, leave, join again, wait
 * for leadership, hand the tenure over ({@code transferTo}, judged by {@link Transfers}),
 * and, for the member on an engine of its own, drain that engine and end the drain. Some
 * work pauses for long (a GC, say) while the tenure is open. In the run's calm phase
 * ({@link CheckerRun#calm()}) it only joins the groups it is not in and works under the
 * tenures it has.
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
		undrainAtTheEnd();
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
		else if (choice >= 95 && this.member instanceof DistlockMember own && own.drains()) {
			drainOrUndrain(op, own);
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
			if (choice < 60) {
				work(op, group);
			}
			else if (choice < 72 && this.member instanceof DistlockMember leader) {
				transfer(op, leader, group);
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

	/**
	 * Hand the tenure to another member of the run that has joined the group, raw latch
	 * included (a raw latch between fails the transfer), or, if none has, to any other
	 * (refused: not a live member); waits for the outcome until the run stops. A leader
	 * that still leads after a transfer that did not happen relinquishes.
	 */
	private void transfer(int op, DistlockMember leader, String group) throws Exception {
		List<LeaderMember> others = this.run.members().stream().filter((other) -> other != leader).toList();
		List<LeaderMember> live = others.stream().filter((other) -> other.joined(group)).toList();
		// Drawn whatever happens, so that the next draws repeat with the seed.
		int draw = this.random.nextInt(1 << 16);
		LeaderMember target = live.isEmpty() ? others.get(draw % others.size()) : live.get(draw % live.size());
		java.util.OptionalLong from = leader.leadership().epoch(group);
		if (from.isEmpty()) {
			return;
		}
		this.run.history()
			.record(History.Type.START, leader.name(), op, Leads.key(group), from.getAsLong(),
					"transfers " + group + " to " + target.name());
		long started = System.nanoTime();
		String outcome;
		try {
			CompletableFuture<Long> transfer = leader.transferTo(group, target.memberId());
			while (!transfer.isDone() && !this.run.stopping()) {
				DistlockActor.park(50);
			}
			if (transfer.isDone() && !transfer.isCompletedExceptionally()) {
				long epoch = transfer.join();
				outcome = "transferred " + group + " to " + target.name() + ", its epoch " + epoch;
				this.run.transfers()
					.succeeded(new Transfers.Transfer(leader.name(), target, group, from.getAsLong(), epoch, started,
							System.nanoTime()), leader.node().client, op);
			}
			else if (transfer.isDone()) {
				outcome = "transfer failed: " + failure(transfer);
			}
			else {
				outcome = "transfer still under way as the run stops";
			}
		}
		catch (IllegalStateException | IllegalArgumentException ex) {
			// It no longer leads, or the target is not a live member now.
			outcome = "transfer refused: " + ex.getMessage();
		}
		catch (LockAcquisitionException ex) {
			// The group could not be read (the connection is away): thrown, not failed.
			outcome = "transfer not begun: " + ex.getMessage();
		}
		this.run.history().record(History.Type.ENDED, leader.name(), op, Leads.key(group), 0, outcome);
		if (!outcome.startsWith("transferred") && leader.leads(group)) {
			membership(op, group, "relinquishes (the transfer did not happen)");
			leader.relinquish(group);
		}
	}

	private static String failure(CompletableFuture<Long> transfer) {
		try {
			transfer.join();
			return "";
		}
		catch (RuntimeException ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			return cause.getClass().getSimpleName() + ": " + cause.getMessage();
		}
	}

	/**
	 * Drain the member's own engine (it stands aside from every election: its "I lead"
	 * intervals end here, as when it leaves), or end the drain (it joins them again).
	 */
	private void drainOrUndrain(int op, DistlockMember own) {
		boolean draining = own.draining();
		for (int g = 0; g < CheckerRun.GROUPS; g++) {
			String group = CheckerRun.group(g);
			membership(op, group, draining ? "undrains" : "drains");
			if (!draining) {
				java.util.OptionalLong epoch = own.leadership().epoch(group);
				epoch.ifPresent((led) -> this.leads.ended(own, group, led, "drains"));
			}
		}
		if (draining) {
			own.undrain();
		}
		else {
			own.drain();
		}
	}

	/** The run stops: a drained member ends its drain, so that it takes part again. */
	private void undrainAtTheEnd() {
		if (this.member instanceof DistlockMember own && own.draining()) {
			for (int g = 0; g < CheckerRun.GROUPS; g++) {
				membership(0, CheckerRun.group(g), "undrains (the run stops)");
			}
			own.undrain();
		}
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
