package io.github.distlock.core;

/**
 * The kinds of lock distlock offers. Each kind keeps its ZooKeeper nodes in a subtree of
 * its own under the lock root, so one name used by two kinds never mixes their nodes.
 */
public enum LockKind {

	/** Reentrant, fair mutex (Curator {@code InterProcessMutex}). */
	MUTEX("mutex"),

	/** Non-reentrant mutex (Curator {@code InterProcessSemaphoreMutex}). */
	NON_REENTRANT_MUTEX("mutex-nr"),

	/** Shared side of a read/write lock (Curator {@code InterProcessReadWriteLock}). */
	READ("rw"),

	/**
	 * Exclusive side of a read/write lock (Curator {@code InterProcessReadWriteLock}).
	 */
	WRITE("rw"),

	/** Counting semaphore (Curator {@code InterProcessSemaphoreV2}). */
	SEMAPHORE("semaphore");

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
