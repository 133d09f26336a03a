package io.github.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What operators see of the locks cluster-wide, and what they may do to them: every lock
 * path in use, every leader election, and who waits for whom across instances, read from
 * ZooKeeper as it is now (not from this instance's memory), so holders of other instances
 * and raw Curator clients on the same nodes are included; a holder asked to release, a
 * holder removed behind its fence, and this instance drained. Obtained from the
 * {@link Locks} it serves ({@link Locks#admin()}). Each method works with blocking reads
 * and writes: for operators and endpoints, not for hot paths.
 */
public interface LockAdmin {

	/**
	 * Every lock in use: each path and protocol that has nodes now, with its holders and
	 * waiters in queue order.
	 * @return the locks in use, ordered by protocol and then by path
	 * @throws LockAcquisitionException if ZooKeeper could not be read
	 */
	List<LockInUse> locks();

	/**
	 * Every leader election that has members now (raw Curator {@code LeaderLatch} members
	 * of a group's node included).
	 * @return the elections, ordered by group
	 * @throws LockAcquisitionException if ZooKeeper could not be read
	 */
	List<Election> leaders();

	/**
	 * Every scheduled job that has a record in ZooKeeper, cluster-wide: its schedule,
	 * whether it is paused, its latest slot, its next slot and its last runs. A job has a
	 * record from its registration on an instance connected to ZooKeeper then, or else
	 * from its first run, so jobs of other instances that this one does not run are
	 * included.
	 * @return the jobs, by name
	 */
	default List<RecordedJob> jobs() {
		throw new UnsupportedOperationException(getClass().getName() + " cannot read the records of scheduled jobs");
	}

	/**
	 * The wait-for graph across instances: who waits behind whom at which lock, and the
	 * cycles in it (instances taking locks in different orders, each waiting for the
	 * other: a deadlock no timeout of theirs reports as such).
	 * @return the graph of the locks in use now
	 * @throws LockAcquisitionException if ZooKeeper could not be read
	 */
	default WaitForGraph waitsFor() {
		return WaitForGraph.of(locks());
	}

	/**
	 * Ask every holder of a lock to release it, with Curator's cooperative revocation:
	 * the revoke marker written on each holder's node, which distlock holders and raw
	 * Curator holders that made their lock revocable both hear. A holder that does not
	 * listen keeps the lock.
	 * @param path the lock's path
	 * @param protocol the lock's protocol (which subtree the path is in)
	 * @return the holders asked
	 * @throws LockNotFoundException if the lock has no holder now
	 * @throws LockAcquisitionException if ZooKeeper could not be read or written
	 * @throws UnsupportedOperationException if this implementation cannot do it
	 */
	default List<LockParticipant> requestRelease(LockPath path, LockProtocol protocol) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot ask holders to release");
	}

	/**
	 * Remove the holder of a lock whose fencing token is the given one, and in the same
	 * step advance the lock's fence past that token in every fence store this instance
	 * knows, so the old holder's fenced writes are refused even if no one takes the lock
	 * next. The old holder learns it lost the lock; the first waiter gets it. The fences
	 * ({@link io.github.distlock.core.spi.FenceStore}s) are advanced before the node is
	 * deleted; if one cannot be written, nothing is removed.
	 * @param path the lock's path
	 * @param protocol the lock's protocol
	 * @param fencingToken the token of the holder to remove, as the operator saw it
	 * @return the holder removed
	 * @throws LockNotFoundException if the lock has no holder now
	 * @throws LockHolderChangedException if no holder has that token any more
	 * @throws LockAcquisitionException if ZooKeeper could not be read or written, or a
	 * fence store could not be advanced (the holder is then not removed)
	 * @throws UnsupportedOperationException if this implementation cannot do it
	 */
	default LockParticipant forceRelease(LockPath path, LockProtocol protocol, long fencingToken) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot remove holders");
	}

	/**
	 * Drain this instance: new acquisitions fail at once with a
	 * {@link LocksDrainingException}, its leaderships are handed over, its scheduled runs
	 * are skipped, and the call waits up to the given time for the holds of this instance
	 * to end. Draining lasts until {@link #undrain()}.
	 * @param wait how long to wait for the holds to end
	 * @return whether every hold of this instance had ended within the wait
	 * @throws UnsupportedOperationException if this implementation cannot do it
	 */
	default boolean drain(Duration wait) {
		throw new UnsupportedOperationException(getClass().getName() + " cannot drain");
	}

	/**
	 * End a drain: acquisitions, leaderships and scheduled runs go on as before it.
	 * @throws UnsupportedOperationException if this implementation cannot drain
	 */
	default void undrain() {
		throw new UnsupportedOperationException(getClass().getName() + " cannot drain");
	}

	/**
	 * Whether this instance is draining.
	 * @return {@code true} between {@link #drain(Duration)} and {@link #undrain()}
	 */
	default boolean isDraining() {
		return false;
	}

	/**
	 * When the drain of this instance began.
	 * @return the time of {@link #drain(Duration)}, empty when not draining
	 */
	default Optional<Instant> drainingSince() {
		return Optional.empty();
	}

}
