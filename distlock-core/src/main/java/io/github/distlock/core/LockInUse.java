package io.github.distlock.core;

import java.util.List;

/**
 * A lock that has nodes now, as {@link LockAdmin#locks()} found it.
 *
 * @param path the lock path
 * @param queue its nodes: the protocol, the queue's node and the participants, holders
 * first, then waiters in queue order
 */
public record LockInUse(LockPath path, LockQueue queue) {

	/**
	 * The protocol whose nodes these are.
	 * @return the queue's protocol
	 */
	public LockProtocol protocol() {
		return this.queue.protocol();
	}

	/**
	 * Who holds the lock now.
	 * @return the holders, in queue order
	 */
	public List<LockParticipant> holders() {
		return this.queue.participants().stream().filter(LockParticipant::holds).toList();
	}

	/**
	 * Who waits for the lock now.
	 * @return the waiters, in queue order
	 */
	public List<LockParticipant> waiters() {
		return this.queue.participants().stream().filter((participant) -> !participant.holds()).toList();
	}

}
