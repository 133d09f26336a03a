package io.github.distlock.curator;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockState;

/**
 * A lock node that holds its lock for us, from the grant until it is released or its
 * session ends. It follows the connection state, and is released by deleting its node:
 * the delete is sent without waiting for ZooKeeper's answer ({@link #closeAsync()}
 * returns it), and retried until the session ends.
 * <p>
 * It follows its session through its {@link HeldNode}, the same code as a leader's
 * tenure: held, in doubt, lost or released, and the fencing token. The hold adds what a
 * lock needs, as that node's owner: a reconnection within the session confirms it at
 * once; a loss passes the local turn on and is reported to the holder's and the loss
 * listeners; the node stays for the release (sent whatever the connection does).
 * <p>
 * A hold is the engine's handle of one acquisition; a
 * {@link io.github.distlock.core.LockScope} wraps it in one handle per (re-)entry and
 * closes it with the last.
 */
final class Hold implements LockHandle, Session.Held {

	private final Engine engine;

	private final LockKind kind;

	private final LockPath path;

	private final String holder;

	private final Instant acquiredAt = Instant.now();

	private final @Nullable AcquisitionEvents events;

	// The local queue whose turn this hold keeps until it is released or lost, or null.
	private final @Nullable String turnPath;

	// Guarded by this: whether the hold still keeps the local turn.
	private boolean keepsTurn;

	private final CompletableFuture<Void> released = new CompletableFuture<>();

	// Guarded by this: held, in doubt, lost or released, and the token.
	private final HeldNode state;

	// Guarded by this: whether the holder got the hold, whether its listeners were told
	// it was acquired, and whether a loss waits for that to be reported.
	private boolean delivered;

	private boolean toldAcquired;

	private boolean lossWaiting;

	Hold(Engine engine, LockKind kind, LockPath path, LockNode node, long token, String holder,
			@Nullable AcquisitionEvents events, @Nullable String turnPath) {
		this.engine = engine;
		this.kind = kind;
		this.path = path;
		this.state = new HeldNode(this, engine.session(), node, token, new Follows());
		this.keepsTurn = turnPath != null;
		this.holder = holder;
		this.events = events;
		this.turnPath = turnPath;
	}

	@Override
	public LockPath path() {
		return this.path;
	}

	@Override
	public LockKind kind() {
		return this.kind;
	}

	@Override
	public long fencingToken() {
		return this.state.token();
	}

	@Override
	public Instant acquiredAt() {
		return this.acquiredAt;
	}

	@Override
	public Optional<String> nodePath() {
		return Optional.of(this.state.node().path());
	}

	/**
	 * What the holder should know now, as its {@link HeldNode} judges it: lost if the
	 * session that owns the node was replaced, whether or not an event said so yet.
	 */
	@Override
	public LockState state() {
		return this.state.state();
	}

	/** The state as last set, without asking whether the session is still the same. */
	LockState currentState() {
		return this.state.currentState();
	}

	@Override
	public LockNode node() {
		return this.state.node();
	}

	String holder() {
		return this.holder;
	}

	/**
	 * Hand the hold to its holder: tell the listeners it was acquired.
	 * @return whether it may be handed out: {@code false} if it was lost meanwhile (the
	 * hold is then released, and the listeners were told the acquisition failed)
	 */
	boolean deliver() {
		boolean deliverable;
		synchronized (this) {
			deliverable = this.state.isOn();
			this.delivered = deliverable;
		}
		if (!deliverable) {
			closeAsync();
			return false;
		}
		if (this.events != null) {
			this.events.acquired(this.state.token());
		}
		boolean lostMeanwhile;
		synchronized (this) {
			this.toldAcquired = true;
			lostMeanwhile = this.lossWaiting;
		}
		if (lostMeanwhile) {
			// Lost while the listeners were told it was acquired: they hear it after.
			this.engine.session().reportLoss(this);
		}
		return true;
	}

	/** Events of this hold's acquisition. */
	@Override
	public @Nullable AcquisitionEvents events() {
		return this.events;
	}

	@Override
	public void suspended() {
		this.state.suspended();
	}

	@Override
	public void reconnected() {
		this.state.reconnected();
	}

	@Override
	public void lost() {
		this.state.lost();
	}

	/**
	 * The node became lost. The hold passes its local turn on at once: other clients may
	 * take the lock now, and so may the next waiter of this client, whether or not this
	 * hold's holder closes it soon (invariant 5, docs/failure-model.md). The loss is
	 * reported if the holder has the hold, after its listeners were told it was acquired.
	 */
	private void becameLost() {
		boolean toldHolder;
		synchronized (this) {
			// Reported once the listeners were told it was acquired, never before.
			this.lossWaiting = this.delivered && !this.toldAcquired;
			toldHolder = this.delivered && this.toldAcquired;
		}
		leaveTurn();
		if (toldHolder) {
			this.engine.session().reportLoss(this);
		}
	}

	/** Pass the local turn on, once. */
	private void leaveTurn() {
		synchronized (this) {
			if (!this.keepsTurn) {
				return;
			}
			this.keepsTurn = false;
		}
		this.engine.localQueues().leave(this.turnPath);
	}

	@Override
	public void close() {
		closeAsync();
	}

	@Override
	public CompletableFuture<Void> closeAsync() {
		boolean wasDelivered;
		synchronized (this) {
			if (!this.state.release()) {
				return this.released;
			}
			wasDelivered = this.delivered;
		}
		this.engine.session().release(this);
		leaveTurn();
		if (wasDelivered && this.events != null) {
			this.events.released();
		}
		return this.released;
	}

	/** Completed when ZooKeeper confirmed the node is gone. */
	@Override
	public CompletableFuture<Void> released() {
		return this.released;
	}

	@Override
	public HeldLock snapshot() {
		return new HeldLock(this.kind, this.path, this.holder, this.acquiredAt, fencingToken(), state());
	}

	/** What a lock's hold does with the transitions of its node. */
	private final class Follows implements HeldNode.Owner {

		@Override
		public boolean suspensionLoses() {
			return Hold.this.engine.session().suspendedIsLost();
		}

		@Override
		public void reconnectedInSession(HeldNode held) {
			held.confirm();
		}

		@Override
		public void lost(HeldNode held) {
			becameLost();
		}

		@Override
		public void sessionEnded(HeldNode held) {
		}

	}

	@Override
	public String toString() {
		return "Hold[" + this.kind + " '" + this.path + "', token " + fencingToken() + ", " + currentState() + "]";
	}

}
