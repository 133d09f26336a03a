package io.github.distlock.core;

/**
 * The kinds of lock distlock offers. Each protocol keeps its ZooKeeper nodes in a subtree
 * of its own under the lock root, so one name used by two protocols never mixes their
 * nodes. Both kinds of mutex are one lock: reentrancy is the caller's policy, not another
 * queue.
 */
public enum LockKind {

	/** Reentrant, fair mutex (the protocol of Curator's {@code InterProcessMutex}). */
	MUTEX("mutex"),

	/**
	 * The same mutex, taken without reentrancy: a holder asking again is refused at once.
	 */
	NON_REENTRANT_MUTEX("mutex"),

	/**
	 * Shared side of a read/write lock (the protocol of Curator's
	 * {@code InterProcessReadWriteLock}).
	 */
	READ("rw"),

	/**
	 * Exclusive side of a read/write lock (the protocol of Curator's
	 * {@code InterProcessReadWriteLock}).
	 */
	WRITE("rw"),

	/**
	 * Counting semaphore (the protocol of Curator's {@code InterProcessSemaphoreV2}).
	 */
	SEMAPHORE("semaphore"),

	/**
	 * Leadership of a group (the protocol of Curator's {@code LeaderLatch}): not a lock
	 * one acquires, but the tenure a {@link Leadership} participant holds while it leads;
	 * a {@code @LeaderOnly} call runs under it.
	 */
	LEADER("leader");

	private final String subtree;

	LockKind(String subtree) {
		this.subtree = subtree;
	}

	/**
	 * Name of the subtree, directly under the lock root, that holds this kind's locks.
	 */
	public String subtree() {
		return this.subtree;
	}

}
