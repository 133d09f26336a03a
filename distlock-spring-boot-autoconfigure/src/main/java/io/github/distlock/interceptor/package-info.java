/**
 * distlock: the interceptor package. Lock annotations become
 * {@link io.github.distlock.interceptor.LockOperation}s once per method
 * ({@link io.github.distlock.interceptor.AnnotationLockOperationSource}, which caches
 * what {@code LockAnnotationParser} and {@code FallbackMethodResolver} make of an
 * annotation); the {@link io.github.distlock.interceptor.LockInterceptor} runs each call:
 * it resolves the call's paths and wait time (a {@code LockCall}) and holds the lock for
 * as long as the method's work lasts, which its return type tells
 * ({@code LockedReturnType}): until it returns, until its {@code CompletionStage}
 * completes, or until its publisher or Kotlin {@code suspend} function ends. The locks of
 * asynchronous calls are found through
 * {@link io.github.distlock.interceptor.ReactiveLockContext},
 * {@link io.github.distlock.interceptor.CoroutineLockContext} and
 * {@link io.github.distlock.interceptor.CompletionStageLockContext}.
 */
@NullMarked
package io.github.distlock.interceptor;

import org.jspecify.annotations.NullMarked;
