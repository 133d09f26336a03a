package io.github.distlock.interceptor;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.CompletionStageLockContext;
import io.github.distlock.core.Handle;
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
			Class<?> targetClass) {
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
		new StageCall(call, invocation, scope, result).start();
		return result;
	}

	/** One call, from the acquisition to the release. */
	private static final class StageCall {

		private final LockCall call;

		private final MethodInvocation invocation;

		private final LockScope scope;

		private final CompletableFuture<@Nullable Object> result;

		// Guarded by this: the held lock, and the method's stage once it returned.
		private @Nullable Handle handle;

		private @Nullable CompletionStage<?> work;

		StageCall(LockCall call, MethodInvocation invocation, LockScope scope,
				CompletableFuture<@Nullable Object> result) {
			this.call = call;
			this.invocation = invocation;
			this.scope = scope;
			this.result = result;
		}

		void start() {
			CompletableFuture<? extends Handle> acquisition = this.call.acquireAsync(this.scope);
			this.result.whenComplete((value, ex) -> {
				if (ex instanceof CancellationException) {
					cancelled(acquisition);
				}
			});
			this.call.whenAcquired(acquisition, this::acquired);
		}

		private void cancelled(CompletableFuture<? extends Handle> acquisition) {
			Handle held;
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

		private void acquired(@Nullable Handle granted, @Nullable Throwable failure) {
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

		private void finish(Handle granted, @Nullable Object value, @Nullable Throwable failure) {
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
			Object instead;
			try {
				instead = NotAcquired.decide(this.call, failure).proceedInstead(this.invocation);
			}
			catch (Throwable ex) {
				this.result.completeExceptionally(ex);
				return;
			}
			if (instead == null) {
				this.result.complete(null);
				return;
			}
			((CompletionStage<?>) instead).whenComplete((value, ex) -> {
				if (ex != null) {
					this.result.completeExceptionally(LockCall.unwrap(ex));
				}
				else {
					this.result.complete(value);
				}
			});
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
