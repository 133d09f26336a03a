package io.github.distlock.curator;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockState;

/**
 * A lock node that holds its lock for us, from the grant until it is released (its delete
 * sent, {@link #closeAsync()} completing on the answer) or its session ends. It follows
 * its session through its {@link Node}, the same code as a leader's tenure, and adds what
 * a lock needs: a reconnection within the session confirms it at once; a loss passes the
 * local turn on and is reported to the listeners. A
 * {@link io.github.distlock.core.LockScope} wraps it in one handle per (re-)entry.
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
	private final Node state;

	// Guarded by this: whether the holder got the hold, whether its listeners were told
	// it was acquired, and whether a loss waits for that to be reported.
	private boolean delivered;

	private boolean toldAcquired;

	private boolean lossWaiting;

	// An operator's request to release, made (and watched) once something listens.
	private final AtomicReference<@Nullable ReleaseRequest> request = new AtomicReference<>();

	Hold(Engine engine, LockKind kind, LockPath path, LockNode node, long token, String holder,
			@Nullable AcquisitionEvents events, @Nullable String turnPath) {
		this.engine = engine;
		this.kind = kind;
		this.path = path;
		this.state = new Node(this, engine.session(), node, token, new Follows());
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

	/** What the holder should know now, as its {@link Node} judges it. */
	@Override
	public LockState state() {
		return this.state.state();
	}

	@Override
	public boolean isReleaseRequested() {
		ReleaseRequest request = this.request.get();
		return request != null && request.isRequested();
	}

	@Override
	public void onReleaseRequested(Runnable listener) {
		this.request.compareAndSet(null, new ReleaseRequest(this.engine, node().path(), this.state::isOn));
		this.request.get().listen(listener);
	}

	/** Kept for the delay, or released at once if an operator asks for it first. */
	@Override
	public void closeAfter(Duration delay) {
		onReleaseRequested(this::close);
		LockHandle.super.closeAfter(delay);
	}

	/** Someone else deleted the node (a forced release): lost. */
	@Override
	public void gone() {
		this.state.end();
	}

	/** The state as last set, without asking whether the session is still the same. */
	LockState currentState() {
		return this.state.currentState();
	}

	@Override
	public LockNode node() {
		return this.state.node();
	}

	/** Tell the listeners it was acquired; {@code false} if lost meanwhile (released). */
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
	 * Lost: the local turn passed on at once (invariant 5); the loss reported once told.
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

	@Override
	public CompletableFuture<Void> released() {
		return this.released;
	}

	@Override
	public HeldLock snapshot() {
		return new HeldLock(this.kind, this.path, this.holder, this.acquiredAt, fencingToken(), state());
	}

	/** What a lock's hold does with the transitions of its node. */
	private final class Follows implements Node.Owner {

		@Override
		public boolean suspensionLoses() {
			return Hold.this.engine.session().suspendedIsLost();
		}

		@Override
		public void reconnectedInSession(Node held) {
			held.confirm();
		}

		@Override
		public void lost(Node held) {
			becameLost();
		}

		@Override
		public void sessionEnded(Node held) {
		}

	}

	@Override
	public String toString() {
		return "Hold[" + this.kind + " '" + this.path + "', token " + fencingToken() + ", " + currentState() + "]";
	}

	/**
	 * One granted node as it follows its session: the one code by which a lock's hold and
	 * a leader's {@code Tenure} are held, in doubt, lost (the session that owns the node
	 * ended, or the node is gone) or released, and its fencing token (a tenure's epoch).
	 * A suspension or loss told after the node was made in a later session is about an
	 * earlier one ({@link Session#isOfLaterSession}): it changes nothing. What a change
	 * means is the {@link Owner}'s, told once, after the change. Guarded by the owner's
	 * monitor, which it is given; the owner's hooks run outside it unless the caller
	 * holds it.
	 */

	static final class Node implements SessionBound {

		private final Object monitor;

		private final Session session;

		private final LockNode node;

		private final long token;

		private final Owner owner;

		// Guarded by the monitor.
		private LockState state = LockState.HELD;

		Node(Object monitor, Session session, LockNode node, long token, Owner owner) {
			this.monitor = monitor;
			this.session = session;
			this.node = node;
			this.token = token;
			this.owner = owner;
		}

		LockNode node() {
			return this.node;
		}

		/** The fencing token: a lock's token, a tenure's epoch. */
		long token() {
			return this.token;
		}

		/** The state as last set, without asking whether the session is the same. */
		LockState currentState() {
			synchronized (this.monitor) {
				return this.state;
			}
		}

		/** Whether the node holds, or may: held or in doubt. */
		boolean isOn() {
			synchronized (this.monitor) {
				return this.state == LockState.HELD || this.state == LockState.IN_DOUBT;
			}
		}

		/** Whether the node belongs to the session in use. */
		boolean isOfSessionInUse() {
			return this.node.clientInstance() == this.session.clientInstance();
		}

		/** The state, or lost if the node's session was replaced (the node ends here). */
		LockState state() {
			LockState judged;
			synchronized (this.monitor) {
				judged = (isOn() && !isOfSessionInUse()) ? LockState.LOST : this.state;
			}
			if (judged == LockState.LOST) {
				end();
			}
			return judged;
		}

		/** Suspended: held is in doubt (lost if suspension loses); if late, nothing. */
		@Override
		public void suspended() {
			boolean lostNow;
			synchronized (this.monitor) {
				if (this.session.isOfLaterSession(this.node) || this.state != LockState.HELD) {
					return;
				}
				this.state = this.owner.suspensionLoses() ? LockState.LOST : LockState.IN_DOUBT;
				lostNow = this.state == LockState.LOST;
			}
			if (lostNow) {
				this.owner.lost(this);
			}
		}

		/** Back: in the node's session the owner decides; in a new one it is lost. */
		@Override
		public void reconnected() {
			if (isOfSessionInUse()) {
				this.owner.reconnectedInSession(this);
			}
			else {
				endWithSession();
			}
		}

		/** Session lost: the node is lost, unless made in a later one (late news). */
		@Override
		public void lost() {
			if (!this.session.isOfLaterSession(this.node)) {
				endWithSession();
			}
		}

		private void endWithSession() {
			end();
			this.owner.sessionEnded(this);
		}

		/** The node is known to hold within the same session: in doubt becomes held. */
		void confirm() {
			synchronized (this.monitor) {
				if (this.state == LockState.IN_DOUBT) {
					this.state = LockState.HELD;
				}
			}
		}

		/**
		 * The node holds no more (its session ended, or it is gone): lost; owner told.
		 */
		void end() {
			synchronized (this.monitor) {
				if (this.state != LockState.HELD && this.state != LockState.IN_DOUBT) {
					return;
				}
				this.state = LockState.LOST;
			}
			this.owner.lost(this);
		}

		/** The holder released it: {@code false} if it was released before. */
		boolean release() {
			synchronized (this.monitor) {
				if (this.state == LockState.RELEASED) {
					return false;
				}
				this.state = LockState.RELEASED;
				return true;
			}
		}

		@Override
		public String toString() {
			return currentState() + ", token " + this.token;
		}

		/** What a hold and a tenure do differently with the same transitions. */
		interface Owner {

			/** Whether a suspension loses the node (the policy {@code SUSPENDED}). */
			boolean suspensionLoses();

			/** Back in the session: a hold confirms at once; a tenure re-reads first. */
			void reconnectedInSession(Node held);

			/** Lost (told once): a hold passes its turn, reports; a tenure ends. */
			void lost(Node held);

			/**
			 * The session that owns the node ended, as an event told, after
			 * {@link #lost}: a hold keeps its node for its holder's release; a
			 * participant deletes it (a server may keep that session a while) and queues
			 * again.
			 */
			void sessionEnded(Node held);

		}

	}

}
