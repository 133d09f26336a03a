package io.github.distlock.curator;

/**
 * What a {@link QueuePosition} tells the acquisition or participant it belongs to,
 * holding that owner's monitor (which guards the position).
 */
interface PositionOwner {

	/** The position's node holds the lock. */
	void granted(QueuePosition position, LockNode node);

	/** The position waits for its lock. */
	void waiting(QueuePosition position);

	/** A request failed for want of a connection: resume the position later. */
	void stalled(QueuePosition position);

	/**
	 * Whether a position whose node vanished (its session ended) may queue again with a
	 * new node by itself; if not, it is abandoned and {@link #vanished} is called.
	 */
	boolean mayRecreate(QueuePosition position);

	/** The position's node vanished and it may not queue again by itself. */
	void vanished(QueuePosition position);

	/** The position failed for good. */
	void failed(QueuePosition position, Exception ex);

}
