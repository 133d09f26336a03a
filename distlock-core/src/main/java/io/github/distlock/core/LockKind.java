package io.github.distlock.core;

/**
 * The kinds of lock distlock offers, one per protocol. Each protocol keeps its ZooKeeper
 * nodes in a subtree of its own under the lock root, so one name used by two protocols
 * never mixes their nodes. Reentrancy is not a kind: it is the holder's policy for a
 * mutex ({@link ClusterLock#isReentrant()}), and both policies queue in the same mutex.
 */
public enum LockKind {

	/**
	 * Fair mutex (the protocol of Curator's {@code InterProcessMutex}), reentrant unless
	 * taken through {@link Locks#nonReentrantMutex(LockPath)}: then a holder asking again
	 * is refused at once.
	 */
	MUTEX("mutex"),

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
