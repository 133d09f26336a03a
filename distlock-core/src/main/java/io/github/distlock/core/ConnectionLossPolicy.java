package io.github.distlock.core;

/**
 * When a held lock counts as lost after the connection to ZooKeeper is interrupted.
 */
public enum ConnectionLossPolicy {

	/**
	 * As soon as the connection is suspended, the lock is lost for good, even if the
	 * session survives: another process may already hold it, and the holder cannot know
	 * (the advice of Curator's tech note 14). The safe default.
	 */
	SUSPENDED,

	/**
	 * Only when the session is lost. While suspended the lock is
	 * {@link LockState#IN_DOUBT} and becomes {@link LockState#HELD} again if the
	 * connection returns within the session timeout.
	 */
	LOST

}
