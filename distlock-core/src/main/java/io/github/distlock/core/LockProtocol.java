package io.github.distlock.core;

/**
 * The protocols that keep a queue of ZooKeeper nodes under a lock path, each that of one
 * of Curator's recipes and each in a subtree of its own under the lock root. A protocol
 * is not a {@link LockKind}: the read and write sides of a read/write lock are two kinds
 * that wait in one queue ({@link LockKind#protocol()} maps a kind to its protocol).
 */
public enum LockProtocol {

	/**
	 * The mutex queue, shared by both kinds of mutex (Curator's
	 * {@code InterProcessMutex}).
	 */
	MUTEX("mutex", "mutex"),

	/**
	 * The read/write lock's queue: readers and writers in one queue (Curator's
	 * {@code InterProcessReadWriteLock}).
	 */
	READ_WRITE("read_write", "rw"),

	/** A semaphore's leases (Curator's {@code InterProcessSemaphoreV2}). */
	SEMAPHORE("semaphore", "semaphore"),

	/** A leadership group's candidates (Curator's {@code LeaderLatch}). */
	LEADER_LATCH("leader_latch", "leader");

	private final String value;

	private final String subtree;

	LockProtocol(String value, String subtree) {
		this.value = value;
		this.subtree = subtree;
	}

	/**
	 * The protocol as the {@code distlock} endpoint shows it.
	 * @return {@code mutex}, {@code read_write}, {@code semaphore} or
	 * {@code leader_latch}
	 */
	public String value() {
		return this.value;
	}

	/**
	 * Name of the subtree, directly under the lock root, that holds this protocol's
	 * queues.
	 * @return the subtree's name
	 */
	public String subtree() {
		return this.subtree;
	}

}
