package io.github.distlock.core;

import java.time.Instant;

/**
 * A snapshot of one hold of this application: a lock it acquired and has not released.
 *
 * @param kind the kind of lock
 * @param path the lock path
 * @param holder who holds it: the name of its {@link LockScope}, which is the acquiring
 * thread's name for a synchronous acquisition
 * @param since when it was acquired
 * @param fencingToken its fencing token
 * @param state what the holder knows about it
 */
public record HeldLock(LockKind kind, LockPath path, String holder, Instant since, long fencingToken, LockState state) {

}
