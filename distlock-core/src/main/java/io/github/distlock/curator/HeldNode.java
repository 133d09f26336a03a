package io.github.distlock.curator;

import io.github.distlock.core.LockState;

/**
 * One granted node as it follows its session: the one code by which a lock's {@link Hold}
 * and a leader's {@link Tenure} are held, in doubt, lost or released, and the node's
 * fencing token (a lock's token, a tenure's epoch).
 * <ul>
 * <li>Suspended: held becomes in doubt, or lost if the owner's policy says a suspension
 * loses.</li>
 * <li>Reconnected within the node's session: the owner decides when it is held again
 * ({@link Owner#reconnectedInSession}; {@link #confirm()} makes in doubt held).</li>
 * <li>The session that owns the node ended (lost, reconnected in another session, or
 * Curator's handle seen replaced when the state is asked): held or in doubt becomes lost.
 * A suspension or loss told after the node was made in a later session is about an
 * earlier one ({@link Session#isOfLaterSession}): it changes nothing.</li>
 * <li>Gone another way (the owner {@linkplain #end() ends} it): lost.</li>
 * <li>Released by its holder: any state becomes released.</li>
 * </ul>
 * What a change means is the owner's ({@link Owner}): told after the change is made,
 * once. Guarded by the owner's monitor, which it is given: the owner's hooks run outside
 * it unless the caller holds it.
 */
final class HeldNode implements SessionBound {

	private final Object monitor;

	private final Session session;

	private final LockNode node;

	private final long token;

	private final Owner owner;

	// Guarded by the monitor.
	private LockState state = LockState.HELD;

	HeldNode(Object monitor, Session session, LockNode node, long token, Owner owner) {
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

	/** The state as last set, without asking whether the session is still the same. */
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
		return this.session.isOf(this.node);
	}

	/**
	 * What the holder should know now: the state, or lost if the session that owns the
	 * node was replaced, whether or not an event said so yet (the node then ends here).
	 */
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

	/**
	 * The connection was suspended: held becomes in doubt, or lost if a suspension loses;
	 * told late about an earlier session, nothing.
	 */
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

	/**
	 * The connection came back: within the node's session the owner decides when it is
	 * held again; in a new session (Curator reports no second loss while it is still in
	 * the lost state, so a session that expired again meanwhile shows only here) it is
	 * lost.
	 */
	@Override
	public void reconnected() {
		if (isOfSessionInUse()) {
			this.owner.reconnectedInSession(this);
		}
		else {
			endWithSession();
		}
	}

	/**
	 * Curator reported a session lost: the node is lost, unless it was made in a later
	 * session, when the loss is about an earlier one, told late.
	 */
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
	 * The node holds no more (its session ended, or it is gone): held or in doubt becomes
	 * lost, and the owner is told.
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

	/**
	 * The holder released it.
	 * @return whether it was not released before
	 */
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

	/**
	 * What a lock's hold and a leader's tenure do differently with the same transitions.
	 */
	interface Owner {

		/**
		 * Whether a suspended connection loses the node (the connection-loss policy
		 * {@link io.github.distlock.core.ConnectionLossPolicy#SUSPENDED}).
		 */
		boolean suspensionLoses();

		/**
		 * The connection came back within the node's session: a hold confirms it at once;
		 * a tenure reads the queue again first.
		 */
		void reconnectedInSession(HeldNode held);

		/**
		 * The node became lost (told once): a hold passes its turn on and reports the
		 * loss; a tenure ends and tells the election.
		 */
		void lost(HeldNode held);

		/**
		 * The session that owns the node ended, as an event told, after {@link #lost}: a
		 * hold keeps its node for its holder's release; a participant deletes it (a
		 * server may keep that session a while) and queues again.
		 */
		void sessionEnded(HeldNode held);

	}

}
