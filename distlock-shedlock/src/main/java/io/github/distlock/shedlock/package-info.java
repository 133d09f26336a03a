/**
 * ShedLock on distlock's engine:
 * {@link io.github.distlock.shedlock.DistlockLockProvider}, a ShedLock
 * {@code LockProvider} whose locks are distlock mutexes at {@code shedlock/<name>}.
 * Applications keep their {@code @SchedulerLock} jobs and swap the provider bean; in a
 * Spring Boot application the provider is auto-configured
 * ({@code io.github.distlock.shedlock.autoconfigure}).
 * <p>
 * The words are ShedLock's where ShedLock's API shows: a <b>lock</b> is what
 * {@code lock()} takes and {@code unlock()} ends, through the {@code SimpleLock}s of its
 * extensions; underneath it is one distlock <b>hold</b> ({@code ShedLockHold}) of the
 * mutex, with the timer of {@code lockAtMostFor}.
 */
@NullMarked
package io.github.distlock.shedlock;

import org.jspecify.annotations.NullMarked;
