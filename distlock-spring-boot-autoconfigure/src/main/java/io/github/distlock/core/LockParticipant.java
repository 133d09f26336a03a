package io.github.distlock.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One node of a lock's queue: a holder or a waiter.
 *
 * @param name the node name
 * @param sequence the sequence number ZooKeeper gave it
 * @param fencingToken the zxid that created it (the fencing token of its holder)
 * @param created when it was created
 * @param holder whether it holds the lock now
 * @param side {@code read} or {@code write} for a read/write lock; {@code lease} for a
 * semaphore lease, {@code waiting} for a semaphore waiter that has no lease yet; null for
 * a mutex
 * @param session the ZooKeeper session that owns it
 * @param data the node's data, which names its holder
 */
public record LockParticipant(String name, long sequence, long fencingToken, Instant created, boolean holder,
		@Nullable String side, long session, byte[] data) {

}
