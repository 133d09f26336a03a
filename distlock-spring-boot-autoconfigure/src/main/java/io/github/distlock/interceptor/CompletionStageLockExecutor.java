package io.github.distlock.interceptor;

import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockScope;
import io.github.distlock.core.LockTimeoutException;

/**
 * Runs locked calls of methods returning a {@link CompletionStage} (or a
 * {@link CompletableFuture}): the call returns at once with a future of its own; the lock
 * is requested without blocking any thread, the method runs once it is held, on the
 * thread that completed the acquisition (the lock engine's executor, never a ZooKeeper
 * thread), and the lock is released when the stage the method returned completes.
 * Cancelling the returned future abandons a waiting acquisition (no lock node is left)
 * or, once the method runs, cancels the method's future and releases the lock at once.
 * <p>
 * Each call holds its lock in a scope of its own: a stage method's lock is not reentrant,
 * and a stage method that waits for another call on the same path it holds waits until
 * its wait time is over, then gets a {@link LockTimeoutException}.
 */
final class CompletionStageLockExecutor {

	private final LockOperationExecutor executor;

	CompletionStageLockExecutor(LockOperationExecutor executor) {
		this.executor = executor;
	}

	CompletableFuture<@Nullable Object> execute(LockOperation operation, MethodInvocation invocation,
			Class<?> targetClass, LockedReturnType.Stage type) {
		CompletableFuture<@Nullable Object> result = new CompletableFuture<>();
		LockCall call;
		try {
			call = this.executor.prepare(operation, invocation, targetClass, "this call");
		}
		catch (RuntimeException ex) {
			result.completeExceptionally(ex);
			return result;
		}
		LockScope scope = LockScope.create("async " + MethodDescriptions.describe(operation.method()));
		new StageCall(call, invocation, type, scope, result).start();
		return result;
	}

	/** One call, from the acquisition to the release. */
	private static final class StageCall {

		private final LockCall call;

		private final MethodInvocation invocation;

		private final LockedReturnType.Stage type;

		private final LockScope scope;

		private final CompletableFuture<@Nullable Object> result;

		// Guarded by this: the held lock, and the method's stage once it returned.
		private @Nullable AutoCloseable handle;

		private @Nullable CompletionStage<?> work;

		StageCall(LockCall call, MethodInvocation invocation, LockedReturnType.Stage type, LockScope scope,
				CompletableFuture<@Nullable Object> result) {
			this.call = call;
			this.invocation = invocation;
			this.type = type;
			this.scope = scope;
			this.result = result;
		}

		void start() {
			CompletableFuture<? extends AutoCloseable> acquisition = this.call.acquireAsync(this.scope);
			this.result.whenComplete((value, ex) -> {
				if (ex instanceof CancellationException) {
					cancelled(acquisition);
				}
			});
			acquisition.whenComplete(this::acquired);
		}

		private void cancelled(CompletableFuture<? extends AutoCloseable> acquisition) {
			AutoCloseable held;
			CompletionStage<?> running;
			synchronized (this) {
				held = this.handle;
				running = this.work;
			}
			if (held == null) {
				// Still waiting: abandoned. If it was granted at this moment, acquired()
				// finds the call cancelled and releases the lock.
				acquisition.cancel(false);
				return;
			}
			if (running == null) {
				// The method is being called: acquired() cancels its stage and releases
				// the lock once it returned, so that the method never runs unlocked.
				return;
			}
			cancel(running);
			LockCall.release(held, null);
		}

		private void acquired(@Nullable AutoCloseable granted, @Nullable Throwable failure) {
			if (granted == null) {
				notAcquired(LockCall.unwrap((failure != null) ? failure : new IllegalStateException("No lock")));
				return;
			}
			synchronized (this) {
				if (this.result.isDone()) {
					LockCall.release(granted, null);
					return;
				}
				this.handle = granted;
			}
			Object returned;
			LockScope previous = CompletionStageLockContext.enter(this.scope);
			try {
				returned = this.invocation.proceed();
			}
			catch (Throwable ex) {
				this.call.releaseAfterFailure(granted, ex);
				this.result.completeExceptionally(ex);
				return;
			}
			finally {
				CompletionStageLockContext.exit(previous);
			}
			if (returned == null) {
				finish(granted, null, null);
				return;
			}
			CompletionStage<?> stage = (CompletionStage<?>) returned;
			boolean cancelled;
			synchronized (this) {
				this.work = stage;
				cancelled = this.result.isDone();
			}
			if (cancelled) {
				cancel(stage);
				LockCall.release(granted, null);
			}
			stage.whenComplete((value, ex) -> finish(granted, value, ex));
		}

		private void finish(AutoCloseable granted, @Nullable Object value, @Nullable Throwable failure) {
			if (failure != null) {
				Throwable cause = LockCall.unwrap(failure);
				this.call.releaseAfterFailure(granted, cause);
				this.result.completeExceptionally(cause);
				return;
			}
			RuntimeException lost = this.call.releaseAfterSuccess(granted);
			if (lost != null) {
				this.result.completeExceptionally(lost);
			}
			else {
				this.result.complete(value);
			}
		}

		private void notAcquired(Throwable failure) {
			if (failure instanceof CancellationException) {
				return;
			}
			if (!(failure instanceof LockTimeoutException engineTimeout)) {
				this.result.completeExceptionally(this.call.described(failure));
				return;
			}
			LockTimeoutException timeout = this.call.timeout(engineTimeout);
			TimeoutPolicy policy = this.call.operation().onTimeout();
			if (policy instanceof TimeoutPolicy.Skip) {
				this.result.complete(this.type.optional() ? Optional.empty() : null);
			}
			else if (policy instanceof TimeoutPolicy.Fallback fallback) {
				Object returned;
				try {
					returned = LockOperationExecutor.invokeFallback(fallback, this.invocation, timeout);
				}
				catch (Throwable ex) {
					this.result.completeExceptionally(ex);
					return;
				}
				if (returned == null) {
					this.result.complete(null);
				}
				else {
					((CompletionStage<?>) returned).whenComplete((value, ex) -> {
						if (ex != null) {
							this.result.completeExceptionally(LockCall.unwrap(ex));
						}
						else {
							this.result.complete(value);
						}
					});
				}
			}
			else {
				this.result.completeExceptionally(timeout);
			}
		}

		private static void cancel(CompletionStage<?> stage) {
			try {
				stage.toCompletableFuture().cancel(false);
			}
			catch (UnsupportedOperationException ex) {
				// A stage that cannot be cancelled runs on; the lock is released anyway.
			}
		}

	}

}
