package io.github.distlock.core;

import java.util.List;

/**
 * One lock's nodes as ZooKeeper has them now: who holds it and who waits, in queue order,
 * as the lock's protocol decides. Returned by {@link Locks#inspect(LockPath)}.
 *
 * @param kind the protocol whose nodes these are
 * @param node the lock's ZooKeeper node, relative to the namespace
 * @param participants the holders and waiters, holders first, then in queue order
 */
public record LockQueue(Kind kind, String node, List<LockParticipant> participants) {

	/**
	 * The protocols that keep a queue under a lock path: one queue each, whichever
	 * {@link LockKind}s use it.
	 */
	public enum Kind {

		/** The mutex queue, shared by both kinds of mutex. */
		MUTEX("mutex"),

		/** The read/write lock's queue: readers and writers in one queue. */
		READ_WRITE("read_write"),

		/** A semaphore's leases. */
		SEMAPHORE("semaphore");

		private final String value;

		Kind(String value) {
			this.value = value;
		}

		/**
		 * The kind as the {@code distlock} endpoint shows it.
		 * @return {@code mutex}, {@code read_write} or {@code semaphore}
		 */
		public String value() {
			return this.value;
		}

	}

}
