package io.github.distlock.core;

import java.time.Instant;

/**
 * A snapshot of one lock held by this application.
 *
 * @param kind the kind of lock
 * @param path the lock path
 * @param thread name of the thread that acquired it
 * @param since when it was acquired
 * @param fencingToken its fencing token
 * @param state what the holder knows about it
 */
public record HeldLock(LockKind kind, LockPath path, String thread, Instant since, long fencingToken, LockState state) {

}
