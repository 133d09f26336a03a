package io.github.distlock.curator;

/**
 * The states of a {@link QueuePosition}; its transitions are the table in this package's
 * documentation.
 */
enum PositionState {

	/** Nothing sent yet. */
	NEW,

	/** Our node is being created; the queue's read may be in flight. */
	CREATING,

	/**
	 * Our node exists (Curator's protected-mode recovery found it after a lost
	 * connection), but its stat is not known yet: it is read.
	 */
	CONFIRMING,

	/** Our node and its stat are known; we read the queue or wait for a watch. */
	QUEUED,

	/** A request failed for want of a connection: waiting to be resumed. */
	STALLED,

	/** Our node holds the lock: the position's work is done. */
	HOLDS,

	/** Given up: our node is deleted (or will be, once its create is answered). */
	ABANDONED

}
