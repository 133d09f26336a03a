package io.github.distlock.core;

import java.time.Instant;

/**
 * A snapshot of one acquisition of this application that waits for its lock.
 *
 * @param kind the kind of lock
 * @param path the lock path
 * @param holder the holder it waits for: the name of its {@link LockScope}, which is the
 * waiting thread's name for a synchronous acquisition
 * @param since when it started to wait
 */
public record WaitingAcquisition(LockKind kind, LockPath path, String holder, Instant since) {

}
