package io.github.distlock.core;

import java.util.List;

/**
 * What operators see of the locks cluster-wide: every lock path in use, every leader
 * election, and who waits for whom across instances, read from ZooKeeper as it is now
 * (not from this instance's memory), so holders of other instances and raw Curator
 * clients on the same nodes are included. Obtained from the {@link Locks} it serves
 * ({@link Locks#admin()}). Each method walks the lock root with blocking reads: for
 * operators and endpoints, not for hot paths.
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
	 * The wait-for graph across instances: who waits behind whom at which lock, and the
	 * cycles in it (instances taking locks in different orders, each waiting for the
	 * other: a deadlock no timeout of theirs reports as such).
	 * @return the graph of the locks in use now
	 * @throws LockAcquisitionException if ZooKeeper could not be read
	 */
	default WaitForGraph waitsFor() {
		return WaitForGraph.of(locks());
	}

}
