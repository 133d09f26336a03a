package io.github.distlock.core;

import java.util.List;

/**
 * One lock's nodes as ZooKeeper has them now: who holds it and who waits, in queue order,
 * as the lock's protocol decides. Returned by {@link Locks#inspect(LockPath)}.
 *
 * @param kind {@code mutex} (both kinds of mutex), {@code read_write} or
 * {@code semaphore}
 * @param node the lock's ZooKeeper node, relative to the namespace
 * @param participants the holders and waiters, holders first, then in queue order
 */
public record LockQueue(String kind, String node, List<LockParticipant> participants) {

}
