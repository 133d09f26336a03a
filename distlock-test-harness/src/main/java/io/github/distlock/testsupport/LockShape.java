package io.github.distlock.testsupport;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.Locks;

/**
 * The lock kinds a fault test runs against, each as an exclusive lock (one holder at a
 * time: what "a holder and its waiters" scenarios need) and as the lock its participants
 * share (readers beside a writer, permits of a semaphore).
 */
public enum LockShape {

	/** The reentrant mutex. */
	MUTEX,

	/** The same mutex taken without reentrancy. */
	NON_REENTRANT_MUTEX,

	/** A read/write lock: its write side when exclusive; readers and a writer shared. */
	READ_WRITE,

	/** A semaphore: one permit when exclusive, {@link #PERMITS} when shared. */
	SEMAPHORE;

	/** Permits of a shared semaphore. */
	public static final int PERMITS = 2;

	/** The lock at the path that one holder at a time holds. */
	public ClusterLock exclusive(Locks locks, String path) {
		return switch (this) {
			case MUTEX -> locks.mutex(path);
			case NON_REENTRANT_MUTEX -> locks.nonReentrantMutex(path);
			case READ_WRITE -> locks.readWrite(path).writeLock();
			case SEMAPHORE -> locks.semaphore(path, 1);
		};
	}

	/**
	 * The lock at the path for one of several participants: every third participant (0,
	 * 3, ...) writes and the others read, semaphore participants share {@link #PERMITS};
	 * both kinds of mutex alternate on one lock.
	 */
	public ClusterLock shared(Locks locks, String path, int participant) {
		return switch (this) {
			case MUTEX, NON_REENTRANT_MUTEX ->
				(participant % 2 == 0) ? locks.mutex(path) : locks.nonReentrantMutex(path);
			case READ_WRITE ->
				(participant % 3 == 0) ? locks.readWrite(path).writeLock() : locks.readWrite(path).readLock();
			case SEMAPHORE -> locks.semaphore(path, PERMITS);
		};
	}

	/** How many holders of {@link #shared} locks may be inside at once, by kind. */
	public int permits(LockKind kind) {
		return (kind == LockKind.SEMAPHORE) ? PERMITS : 1;
	}

	/**
	 * The ZooKeeper node whose children are the holders' nodes, relative to the
	 * namespace.
	 */
	public String holdersNode(String path) {
		return switch (this) {
			case MUTEX, NON_REENTRANT_MUTEX -> "/mutex/" + path;
			case READ_WRITE -> "/rw/" + path;
			case SEMAPHORE -> "/semaphore/" + path + "/leases";
		};
	}

	/** Every node under which the lock's nodes live, relative to the namespace. */
	public String[] lockNodes(String path) {
		return switch (this) {
			case MUTEX, NON_REENTRANT_MUTEX -> new String[] { "/mutex/" + path };
			case READ_WRITE -> new String[] { "/rw/" + path };
			case SEMAPHORE -> new String[] { "/semaphore/" + path + "/leases", "/semaphore/" + path + "/locks" };
		};
	}

}
