package io.github.distlock.core;

/**
 * The kind of what a {@link LockHandle} holds, one per way of holding: the four kinds of
 * lock that {@link Locks} hands out, and {@link #LEADER}, the tenure of a
 * {@link Leadership} participant, which is held like a lock (a {@code @LeaderOnly} call
 * runs under it and finds it in its {@link LockContext}) but is taken by joining a group,
 * never acquired through {@link Locks}. Each kind waits in the queue of one
 * {@link LockProtocol}, in a subtree of its own under the lock root, so one name used by
 * two protocols never mixes their nodes. Reentrancy is not a kind: it is the holder's
 * policy for a mutex ({@link ClusterLock#isReentrant()}), and both policies queue in the
 * same mutex.
 */
public enum LockKind {

	/**
	 * Fair mutex (the protocol of Curator's {@code InterProcessMutex}), reentrant unless
	 * taken through {@link Locks#nonReentrantMutex(LockPath)}: then a holder asking again
	 * is refused at once.
	 */
	MUTEX(LockProtocol.MUTEX),

	/**
	 * Shared side of a read/write lock (the protocol of Curator's
	 * {@code InterProcessReadWriteLock}).
	 */
	READ(LockProtocol.READ_WRITE),

	/**
	 * Exclusive side of a read/write lock (the protocol of Curator's
	 * {@code InterProcessReadWriteLock}).
	 */
	WRITE(LockProtocol.READ_WRITE),

	/**
	 * Counting semaphore (the protocol of Curator's {@code InterProcessSemaphoreV2}).
	 */
	SEMAPHORE(LockProtocol.SEMAPHORE),

	/**
	 * Leadership of a group (the protocol of Curator's {@code LeaderLatch}): not a lock
	 * one acquires, but the tenure a {@link Leadership} participant holds while it leads;
	 * a {@code @LeaderOnly} call runs under it. {@link #isLock()} is false.
	 */
	LEADER(LockProtocol.LEADER_LATCH);

	private final LockProtocol protocol;

	LockKind(LockProtocol protocol) {
		this.protocol = protocol;
	}

	/**
	 * The protocol whose queue holds this kind's nodes.
	 * @return the protocol
	 */
	public LockProtocol protocol() {
		return this.protocol;
	}

	/**
	 * Whether this is a kind of lock that {@link Locks} hands out and a holder acquires:
	 * every kind but {@link #LEADER}.
	 * @return whether it is a lock's kind
	 */
	public boolean isLock() {
		return this != LEADER;
	}

	/**
	 * Name of the subtree, directly under the lock root, that holds this kind's locks:
	 * its {@linkplain LockProtocol#subtree() protocol's}.
	 * @return the subtree's name
	 */
	public String subtree() {
		return this.protocol.subtree();
	}

}
