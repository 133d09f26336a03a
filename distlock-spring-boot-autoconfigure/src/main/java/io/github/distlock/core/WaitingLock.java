package io.github.distlock.core;

import java.time.Instant;

/**
 * A snapshot of one acquisition of this application that waits for its lock.
 *
 * @param kind the kind of lock
 * @param path the lock path
 * @param thread name of the waiting thread
 * @param since when it started to wait
 */
public record WaitingLock(LockKind kind, LockPath path, String thread, Instant since) {

}
