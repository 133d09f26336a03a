package io.github.distlock.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.state.ConnectionState;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockState;
import io.github.distlock.testsupport.Faults;

/**
 * A holder that keeps a mutex of its own node for seconds and watches what the engine
 * says of it, as an application that runs long work under a lock does: half of its holds
 * ask the handle's state every 100 ms (each answer is a claim: {@link LockState#HELD}
 * after the loss listener reported the hold lost is judged by {@link HistoryAnalysis}),
 * the other half only wait for the loss listener and ask at the end ("listening").
 * <p>
 * Judged after the run ({@link #judge}): a listening hold whose client reported the
 * trouble that loses it ({@code LOST}, or under the {@code SUSPENDED} policy a
 * suspension), with no connection between its grant and that trouble, and still held and
 * not asked {@link #TOLD} later, was reported lost by the loss listener by then
 * (docs/failure-model.md, "What the holder sees": a hold is lost at once when its client
 * learns of its session's end, and the loss listeners are called). The bound is the
 * checker's slack for anything timed, one session timeout.
 * <p>
 * The watcher of the {@code LOST}-policy node takes its first hold in the run's steered
 * phase, once the steered downgrades are over ({@link #holdAcrossGivenUpSession}): it
 * holds, its node's relays are cut, and once Curator gave the session up ({@code LOST},
 * after the session timeout without a connection) the loss must have been told, to the
 * loss listener within {@link #TOLD} and by the handle's state, while ZooKeeper is still
 * away (docs/failure-model.md, "What the holder sees", policy {@code LOST}). Every run
 * with faults has that scene, whatever its seed draws.
 */
final class HoldWatcher implements Runnable {

	/** How long after its client's trouble the loss listener must have told a loss. */
	static final Duration TOLD = Duration.ofSeconds(3);

	private final CheckerRun run;

	private final Node node;

	private final boolean suspensionLoses;

	private final String name;

	private final long seed;

	private final List<HoldRecord> listened = new ArrayList<>();

	private final boolean givesUp;

	/**
	 * @param givesUp whether its first hold is held across a session given up, as the
	 * steered phase's second part ({@link CheckerRun#steeredPartOver()} once over)
	 */
	HoldWatcher(CheckerRun run, Node node, boolean suspensionLoses, long seed, boolean givesUp) {
		this.run = run;
		this.node = node;
		this.suspensionLoses = suspensionLoses;
		this.name = node.name + "-watch";
		this.seed = seed;
		this.givesUp = givesUp;
	}

	/** The path of the node's own mutex. */
	static String path(Node node) {
		return "w" + node.index;
	}

	@Override
	public void run() {
		if (this.givesUp) {
			try {
				while (!this.run.downgradesSteered() && !this.run.stopping()) {
					DistlockActor.park(20);
				}
				holdAcrossGivenUpSession();
			}
			finally {
				this.run.steeredPartOver();
			}
		}
		String path = path(this.node);
		String key = CheckerRun.key(LockKind.MUTEX, path);
		while (!this.run.stopping()) {
			int op = this.run.nextOp(this.name);
			Random random = new Random(this.seed * 1_000_003L + op);
			// The node under the LOST policy listens more, and ends its own session in
			// half of those holds: only a session's end loses its holds.
			boolean listening = random.nextInt(4) < (this.suspensionLoses ? 2 : 3);
			boolean endSession = !this.suspensionLoses && listening && random.nextBoolean();
			long holdFor = 4_000 + random.nextInt(2_000);
			this.run.history().record(History.Type.START, this.name, op, key, 0, "MUTEX hold " + holdFor + " ms");
			LockHandle handle;
			try {
				handle = this.node.locks.mutex(path).acquire(Duration.ofSeconds(2));
			}
			catch (DistributedLockException ex) {
				this.run.history()
					.record(History.Type.ENDED, this.name, op, key, 0, ex.getClass().getSimpleName() + ": " + ex);
				DistlockActor.park(100);
				continue;
			}
			this.run.history().record(History.Type.GRANTED, this.name, op, key, handle.fencingToken(), "watched");
			HoldRecord hold = this.run.open(op, this.name, this.node.index, key, LockKind.MUTEX, 0,
					handle.fencingToken(), 0, handle);
			hold.listening = listening;
			if (listening) {
				synchronized (this.listened) {
					this.listened.add(hold);
				}
			}
			try {
				this.run.store().enter(hold);
				long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(holdFor);
				if (endSession) {
					DistlockActor.park(300);
					if (!this.run.steering() && !this.run.calm()) {
						this.run.injector().endSession(this.node, "watched " + hold + " listens");
					}
				}
				while ((System.nanoTime() < until || listening && troubleUntold(hold)) && !this.run.stopping()) {
					DistlockActor.park(listening ? 50 : 100);
					if (!listening && hold.checkState() != LockState.HELD) {
						break;
					}
				}
				hold.checkState();
				this.run.store().exit(hold);
			}
			finally {
				try {
					handle.close();
				}
				catch (RuntimeException ex) {
					this.run.history()
						.record(History.Type.RELEASED, this.name, op, key, hold.token, "release failed: " + ex);
				}
				this.run.released(hold, "");
			}
		}
	}

	/**
	 * Hold the node's mutex while ZooKeeper is kept away from the node until its client
	 * gives the session up, and judge what the engine told meanwhile.
	 */
	private void holdAcrossGivenUpSession() {
		String path = path(this.node);
		String key = CheckerRun.key(LockKind.MUTEX, path);
		int op = this.run.nextOp(this.name);
		this.run.history().record(History.Type.START, this.name, op, key, 0, "MUTEX hold across a session given up");
		LockHandle handle;
		try {
			handle = this.node.locks.mutex(path).acquire(Duration.ofSeconds(10));
		}
		catch (DistributedLockException ex) {
			this.run.history()
				.record(History.Type.ENDED, this.name, op, key, 0, ex.getClass().getSimpleName() + ": " + ex);
			return;
		}
		this.run.history().record(History.Type.GRANTED, this.name, op, key, handle.fencingToken(), "watched");
		HoldRecord hold = this.run.open(op, this.name, this.node.index, key, LockKind.MUTEX, 0, handle.fencingToken(),
				0, handle);
		hold.listening = true;
		try {
			this.run.store().enter(hold);
			this.run.injector().givenUp(this.node, "watched " + hold + " listens", () -> lossToldWhileAway(op, hold));
			hold.checkState();
			this.run.store().exit(hold);
		}
		finally {
			try {
				handle.close();
			}
			catch (RuntimeException ex) {
				this.run.history()
					.record(History.Type.RELEASED, this.name, op, key, hold.token, "release failed: " + ex);
			}
			this.run.released(hold, "");
		}
	}

	/**
	 * While no server can be reached: wait for the client's {@code LOST}, then for the
	 * loss listener ({@link #TOLD} at most), then ask the handle. A loss not told by
	 * then, or a state other than {@link LockState#LOST}, is a violation,
	 * {@code loss untold}.
	 */
	private void lossToldWhileAway(int op, HoldRecord hold) {
		long cut = System.nanoTime();
		long deadline = cut + Faults.NODES.sessionTimeout().multipliedBy(3).plusSeconds(10).toNanos();
		Node.Change lost = givenUpSince(cut);
		while (lost == null && System.nanoTime() < deadline && !this.run.stopping()) {
			DistlockActor.park(20);
			lost = givenUpSince(cut);
		}
		if (lost == null) {
			this.run.history()
				.record(History.Type.FAULT, this.name, op, hold.lock, hold.token,
						"its client did not give the session up while cut off: nothing judged");
			return;
		}
		long by = lost.nanos() + TOLD.toNanos();
		while (hold.reportedNanos == Long.MAX_VALUE && System.nanoTime() < by) {
			DistlockActor.park(20);
		}
		LockState state = hold.checkState();
		boolean away = !this.node.client.getZookeeperClient().isConnected();
		long lostAt = this.run.history().millis(lost.nanos());
		if (!away) {
			this.run.history()
				.record(History.Type.FAULT, this.name, op, hold.lock, hold.token,
						"its client is connected though cut off: nothing judged");
		}
		else if (hold.reportedNanos > by) {
			this.run.violation(this.name, op, hold.lock,
					"loss untold: " + hold + " was held when its client gave its session up (LOST at " + lostAt
							+ " ms, no server reachable), and the loss listener had not told its loss "
							+ TOLD.toMillis() + " ms later, ZooKeeper still away");
		}
		else if (state != LockState.LOST) {
			this.run.violation(this.name, op, hold.lock,
					"loss untold: " + hold + " was held when its client gave its session up (LOST at " + lostAt
							+ " ms, no server reachable); the loss listener told its loss, and its handle then"
							+ " answered " + state + ", ZooKeeper still away");
		}
	}

	/** The client's first {@code LOST} after the given time, if any. */
	private Node.@Nullable Change givenUpSince(long nanos) {
		return this.node.changes()
			.stream()
			.filter((change) -> change.nanos() > nanos && change.state() == ConnectionState.LOST)
			.findFirst()
			.orElse(null);
	}

	/**
	 * Whether the client reported trouble that loses the hold less than {@link #TOLD}
	 * (and half a second) ago, with no loss told yet: a listening hold is kept until the
	 * time its loss must have been told by.
	 */
	private boolean troubleUntold(HoldRecord hold) {
		if (hold.reportedNanos != Long.MAX_VALUE) {
			return false;
		}
		long now = System.nanoTime();
		long wait = TOLD.toNanos() + TimeUnit.MILLISECONDS.toNanos(500);
		return this.node.changes()
			.stream()
			.anyMatch((change) -> change.nanos() > hold.grantedNanos && now - change.nanos() < wait
					&& loses(change.state()));
	}

	private boolean loses(ConnectionState state) {
		return state == ConnectionState.LOST || (this.suspensionLoses && state == ConnectionState.SUSPENDED);
	}

	/** Judge the listening holds: was each loss told in time? */
	List<CheckerRun.Violation> judge() {
		List<CheckerRun.Violation> violations = new ArrayList<>();
		long told = TOLD.toNanos();
		List<Node.Change> changes = this.node.changes();
		List<HoldRecord> holds;
		synchronized (this.listened) {
			holds = List.copyOf(this.listened);
		}
		for (HoldRecord hold : holds) {
			for (Node.Change change : changes) {
				if (change.nanos() <= hold.grantedNanos) {
					continue;
				}
				if (change.state() == ConnectionState.CONNECTED || change.state() == ConnectionState.RECONNECTED) {
					// Another connection since the grant: not judged from here on.
					break;
				}
				if (!loses(change.state())) {
					continue;
				}
				long by = change.nanos() + told;
				if (hold.askedNanos > by && hold.releasedNanos > by && hold.reportedNanos > by) {
					History.Event event = this.run.history()
						.record(History.Type.VIOLATION, this.name, hold.op, hold.lock, hold.token,
								"loss untold: " + hold + " was still held " + TOLD.toMillis() + " ms after its client"
										+ " reported " + change.state() + ", and the loss listener had not told its"
										+ " loss (the holder did not ask its state meanwhile)");
					violations.add(new CheckerRun.Violation(change.nanos(),
							"op " + hold.op + " (" + this.name + "), event #" + event.seq() + ": " + event.text() + "\n"
									+ this.run.history().excerpt(event.seq(), hold.lock, 12)));
				}
				break;
			}
		}
		return violations;
	}

}
