package io.github.distlock.core;

import java.util.List;

/**
 * One lock's nodes as ZooKeeper has them now: who holds it and who waits, in queue order,
 * as the lock's protocol decides. Returned by {@link Locks#inspect(LockPath)}.
 *
 * @param protocol the protocol whose nodes these are
 * @param node the lock's ZooKeeper node, relative to the namespace
 * @param participants the holders and waiters, holders first, then in queue order
 */
public record LockQueue(LockProtocol protocol, String node, List<LockParticipant> participants) {

	/**
	 * Create a queue of the given protocol.
	 * @param kind the protocol whose nodes these are
	 * @param node the lock's ZooKeeper node, relative to the namespace
	 * @param participants the holders and waiters
	 * @deprecated use {@link #LockQueue(LockProtocol, String, List)}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public LockQueue(Kind kind, String node, List<LockParticipant> participants) {
		this(kind.protocol(), node, participants);
	}

	/**
	 * The protocol whose nodes these are.
	 * @return the protocol, as the deprecated enum has it
	 * @deprecated use {@link #protocol()}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public Kind kind() {
		return Kind.valueOf(this.protocol.name());
	}

	/**
	 * The protocols that keep a queue under a lock path.
	 *
	 * @deprecated use {@link LockProtocol}, which names the same protocols (and the
	 * leadership's)
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public enum Kind {

		/** The mutex queue, shared by both kinds of mutex. */
		MUTEX,

		/** The read/write lock's queue: readers and writers in one queue. */
		READ_WRITE,

		/** A semaphore's leases. */
		SEMAPHORE,

		/** A leadership group's candidates. */
		LEADER_LATCH;

		/**
		 * The kind as the {@code distlock} endpoint shows it.
		 * @return {@code mutex}, {@code read_write}, {@code semaphore} or
		 * {@code leader_latch}
		 */
		public String value() {
			return protocol().value();
		}

		/**
		 * This kind as a protocol.
		 * @return the protocol of the same name
		 */
		public LockProtocol protocol() {
			return LockProtocol.valueOf(name());
		}

	}

}
