/**
 * distlock: the interceptor package. Lock annotations become
 * {@link io.github.distlock.interceptor.LockOperation}s once per method
 * ({@link io.github.distlock.interceptor.AnnotationLockOperationSource}, which caches
 * what {@code LockAnnotationParser} and {@code FallbackMethodResolver} make of an
 * annotation; {@link io.github.distlock.interceptor.LeaderOnlyOperationSource} for
 * {@code @LeaderOnly}; both, the {@code @ScheduledOnce} source and
 * {@link io.github.distlock.interceptor.PartitionOwnerOperationSource} for
 * {@code @PartitionOwner}, on
 * {@link io.github.distlock.interceptor.AbstractFallbackOperationSource}, which holds the
 * one cache and the one order in which an annotation is looked for). One
 * {@link io.github.distlock.interceptor.OperationSourceAdvisor}, parameterized by its
 * source and interceptor, advises each of them. An operation carries all that is decided
 * at startup: the path template, the wait time and the hold time
 * ({@link io.github.distlock.interceptor.DurationTemplate}), the
 * {@link io.github.distlock.interceptor.TimeoutPolicy}, and how long the method's work
 * lasts, which its return type tells
 * ({@link io.github.distlock.interceptor.LockedReturnType}).
 *
 * <h2>The interceptor's decision per call</h2> The
 * {@link io.github.distlock.interceptor.LockInterceptor} hands each call of an annotated
 * method to the {@code LockOperationExecutor}, which
 * <ol>
 * <li>resolves the call's paths, wait time and hold time (a {@code LockCall});</li>
 * <li>takes the executor the operation's return type names: the lock is held until the
 * method returns, until its {@code CompletionStage} completes
 * ({@code CompletionStageLockExecutor}), or until its publisher or Kotlin {@code suspend}
 * function ends ({@code ReactiveLockExecutor});</li>
 * <li>acquires the lock and, once it is held, runs the method and releases the lock when
 * the work ends: a lock lost while the work ran, or a failed release, fails the call; a
 * release failure never hides the method's own exception;</li>
 * <li>when the lock was not acquired, does what {@code NotAcquired} decides, once for
 * every return type: skip (the empty value of the return type), call the fallback, or
 * fail (with the timeout as the caller sees it, built there once; with the
 * {@code NotLeaderException} of a group this instance does not lead; or with the
 * acquisition's failure, described). The method does not run. The executors only adapt
 * that outcome to what they return: a value, a stage or a publisher.</li>
 * </ol>
 * A {@code @PartitionOwner} call takes no lock: its
 * {@link io.github.distlock.interceptor.PartitionOwnerInterceptor} evaluates the key with
 * the lock annotations' expression evaluator, and runs the method inside
 * {@code Partitions.enter} of the key's partition when this instance owns it; plain
 * methods only.
 * <p>
 * The locks of asynchronous calls are found through
 * {@link io.github.distlock.core.ReactiveLockContext},
 * {@link io.github.distlock.core.CoroutineLockContext} and
 * {@link io.github.distlock.core.CompletionStageLockContext}.
 */
@NullMarked
package io.github.distlock.interceptor;

import org.jspecify.annotations.NullMarked;
