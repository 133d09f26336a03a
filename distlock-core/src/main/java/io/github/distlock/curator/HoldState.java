package io.github.distlock.curator;

import io.github.distlock.core.LockState;

/**
 * Whether a granted node holds for us now, as its session decides: the one place where a
 * lock's {@link Hold} and a leader's {@link Tenure} go from held to in doubt or lost.
 * <ul>
 * <li>Suspended: held becomes in doubt, or lost under the connection-loss policy
 * {@link io.github.distlock.core.ConnectionLossPolicy#SUSPENDED}.</li>
 * <li>Confirmed within the same session: in doubt becomes held again.</li>
 * <li>The session that owns the node ended (reported, or seen as Curator's replaced
 * handle): held or in doubt becomes lost. A suspension or loss told after the node was
 * made in a later session is about an earlier one ({@link #isOfLaterSession}): it changes
 * nothing.</li>
 * <li>Released by its holder: any state becomes released.</li>
 * </ul>
 * Its fencing token is the lock's token, or the tenure's epoch. Guarded by its owner's
 * monitor; what a change means (who is told, what is passed on) is the owner's.
 */
final class HoldState {

	private final LockNode node;

	private final long token;

	private LockState state = LockState.HELD;

	HoldState(LockNode node, long token) {
		this.node = node;
		this.token = token;
	}

	LockNode node() {
		return this.node;
	}

	long token() {
		return this.token;
	}

	/** The state as last set, without asking whether the session is still the same. */
	LockState state() {
		return this.state;
	}

	/** Whether the node holds, or may: held or in doubt. */
	boolean isOn() {
		return this.state == LockState.HELD || this.state == LockState.IN_DOUBT;
	}

	/** Whether the node belongs to the session in use. */
	boolean isOf(Session session) {
		return session.isOf(this.node);
	}

	/**
	 * Whether the node was made in a session later than the one a suspension or loss told
	 * now is about ({@link Session#isOfLaterSession}): the event changes nothing.
	 */
	boolean isOfLaterSession(Session session) {
		return session.isOfLaterSession(this.node);
	}

	/**
	 * What the holder should know now: the state, or lost if the session that owns the
	 * node was replaced, whether or not an event said so yet.
	 */
	LockState judge(Session session) {
		return (isOn() && !isOf(session)) ? LockState.LOST : this.state;
	}

	/**
	 * The connection was suspended: held becomes in doubt, or lost if a suspension loses.
	 * @return whether it became lost now
	 */
	boolean suspend(boolean suspendedIsLost) {
		if (this.state != LockState.HELD) {
			return false;
		}
		this.state = suspendedIsLost ? LockState.LOST : LockState.IN_DOUBT;
		return this.state == LockState.LOST;
	}

	/** The node is known to hold within the same session: in doubt becomes held. */
	void confirm() {
		if (this.state == LockState.IN_DOUBT) {
			this.state = LockState.HELD;
		}
	}

	/**
	 * The session that owns the node ended, or the node holds no more.
	 * @return whether it became lost now
	 */
	boolean end() {
		if (!isOn()) {
			return false;
		}
		this.state = LockState.LOST;
		return true;
	}

	/**
	 * The holder released it.
	 * @return whether it was not released before
	 */
	boolean release() {
		if (this.state == LockState.RELEASED) {
			return false;
		}
		this.state = LockState.RELEASED;
		return true;
	}

	@Override
	public String toString() {
		return this.state + ", token " + this.token;
	}

}
