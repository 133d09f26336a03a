package io.github.distlock.interceptor;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.Acquirable;
import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.Handle;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockReentryException;
import io.github.distlock.core.LockReleaseException;
import io.github.distlock.core.LockScope;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.LockUpgradeException;
import io.github.distlock.core.Locks;
import io.github.distlock.core.MultiLockHandle;

/**
 * One locked call, resolved: its operation, the paths its template gave and its wait
 * time. Acquires the lock (one path) or the multi-lock (several), synchronously for the
 * calling thread or asynchronously for a {@link LockScope}, and words every failure so
 * that it names the method, the template and the paths.
 *
 * @param operation the operation
 * @param locks the lock API
 * @param paths the resolved paths, sorted, at least one
 * @param waitTime the resolved wait time
 * @param holdAtLeast how long the lock stays held at least after its acquisition; zero
 * releases it as soon as the work ends
 * @param holder who holds the lock, for messages: {@code this thread}, {@code this
 * pipeline}
 */
record LockCall(LockOperation operation, Locks locks, List<LockPath> paths, Duration waitTime, Duration holdAtLeast,
		String holder) {

	/**
	 * Take the lock for the calling thread.
	 * @return the handle: a {@link LockHandle} or a {@link MultiLockHandle}
	 * @throws RuntimeException if it was not acquired, as the engine words it: what the
	 * call does then is {@linkplain NotAcquired#decide decided} from it
	 */
	Handle acquire() {
		return acquirable().acquire(this.waitTime);
	}

	/**
	 * Start taking the lock for a scope without waiting. The future completes on the
	 * engine's executor; a failure is as the engine words it (see
	 * {@link NotAcquired#decide}).
	 * @param scope who holds the lock
	 * @return the future handle: a {@link LockHandle} or a {@link MultiLockHandle}
	 */
	CompletableFuture<? extends Handle> acquireAsync(LockScope scope) {
		try {
			return acquirable().acquireAsync(this.waitTime, scope);
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	/**
	 * Run an action when an acquisition of this call completes, on the thread that
	 * completed it (the engine's executor), or, when it had completed already as the
	 * action was added, on the engine's completion executor: never on the caller, which a
	 * loaded machine can leave behind a fast grant.
	 * @param acquisition the acquisition, from {@link #acquireAsync}
	 * @param action what to do with the handle or the failure
	 */
	<T> void whenAcquired(CompletableFuture<T> acquisition,
			BiConsumer<? super @Nullable T, ? super @Nullable Throwable> action) {
		Thread adding = Thread.currentThread();
		AtomicBoolean addingNow = new AtomicBoolean(true);
		acquisition.whenComplete((value, failure) -> {
			if (addingNow.get() && Thread.currentThread() == adding) {
				this.locks.completionExecutor().execute(() -> action.accept(value, failure));
			}
			else {
				action.accept(value, failure);
			}
		});
		addingNow.set(false);
	}

	/** The lock of the one path, or the multi-lock of several. */
	private Acquirable<?> acquirable() {
		if (this.paths.size() == 1) {
			return this.operation.lock(this.locks, this.paths.get(0));
		}
		List<ClusterLock> members = new ArrayList<>(this.paths.size());
		for (LockPath path : this.paths) {
			members.add(this.operation.lock(this.locks, path));
		}
		return this.locks.multi(members);
	}

	/**
	 * Return the timeout of this call as the caller sees it: the engine's message, which
	 * names the path, the wait time and why, after the method that asked. Built once per
	 * call, by {@link NotAcquired#decide}.
	 * @param cause the engine's timeout
	 * @return the timeout to report
	 */
	LockTimeoutException timeout(LockTimeoutException cause) {
		return new LockTimeoutException(this.operation.description() + ": " + cause.getMessage(), cause.getPath(),
				cause.getWaitTime(), cause);
	}

	/**
	 * Word an acquisition failure other than a timeout for the caller: the method and the
	 * paths, then the engine's reason, the engine's exception as the cause.
	 * @param failure the failure, possibly wrapped by a future
	 * @return the exception to report
	 */
	Throwable described(Throwable failure) {
		Throwable ex = unwrap(failure);
		String description = this.operation.description();
		if (ex instanceof LockReentryException) {
			LockReentryException reentry = new LockReentryException(description + ": " + describePaths()
					+ " is already held by " + this.holder + " and is not reentrant: " + ex.getMessage());
			reentry.initCause(ex);
			return reentry;
		}
		if (ex instanceof LockUpgradeException) {
			LockUpgradeException upgrade = new LockUpgradeException(description + ": " + ex.getMessage());
			upgrade.initCause(ex);
			return upgrade;
		}
		if (ex instanceof LockConfigurationException) {
			return new LockConfigurationException(
					description + ": acquiring " + describePaths() + " failed: " + ex.getMessage(), ex);
		}
		if (ex instanceof LockAcquisitionException) {
			return new LockAcquisitionException(
					description + ": acquiring " + describePaths() + " failed: " + ex.getMessage(), ex);
		}
		return ex;
	}

	/**
	 * Check, after the method's work ended and before its locks are released, that every
	 * lock was held throughout: a lock that is not {@link LockState#HELD} now was lost
	 * (or is in doubt) while the work ran, so another holder may have run at the same
	 * time and the method's result must not reach the caller as if it had been protected.
	 * @param handle the handle of the call
	 * @return the exception to report, or {@code null} if every lock is still held
	 */
	@Nullable LockLostException lossOf(Handle handle) {
		return (handle.state() == LockState.HELD) ? null : lossOf(handle.handles());
	}

	private @Nullable LockLostException lossOf(List<? extends LockHandle> handles) {
		List<String> notHeld = new ArrayList<>();
		for (LockHandle handle : handles) {
			LockState state = handle.state();
			if (state != LockState.HELD) {
				notHeld.add("'" + handle.path() + "' is " + state);
			}
		}
		if (notHeld.isEmpty()) {
			return null;
		}
		return new LockLostException(this.operation.description() + ": lock " + String.join(", ", notHeld)
				+ " (path template '" + this.operation.path().template() + "') after the method ran; "
				+ "another holder may have run at the same time, so the method's result is discarded. "
				+ "Make the work idempotent or fenced (LockContext.current().fencingToken()), "
				+ "and retry the call if it must happen");
	}

	/**
	 * Release the lock after the method's work completed normally.
	 * @param handle the handle of the call
	 * @return the exception the caller gets instead of the result: the lock was lost
	 * while the work ran, or could not be released; {@code null} if all went well
	 */
	@Nullable RuntimeException releaseAfterSuccess(Handle handle) {
		LockLostException lost = lossOf(handle);
		try {
			closeHoldingAtLeast(handle, lost == null);
		}
		catch (RuntimeException ex) {
			if (lost != null) {
				lost.addSuppressed(ex);
				return lost;
			}
			return new LockReleaseException(this.operation.description() + ": the method returned, but releasing "
					+ describePaths() + " failed: " + ex.getMessage(), ex);
		}
		return lost;
	}

	/**
	 * Release the lock after the method's work failed, adding what else went wrong to the
	 * method's own exception: a loss of the lock, a failed release. A release failure
	 * never hides the method's exception.
	 * @param handle the handle of the call
	 * @param failure the method's exception
	 */
	void releaseAfterFailure(Handle handle, Throwable failure) {
		LockLostException lost = lossOf(handle);
		// A transaction rolled back for the loss already says so.
		if (lost != null && !(failure instanceof LockLostException)) {
			failure.addSuppressed(lost);
		}
		try {
			closeHoldingAtLeast(handle, lost == null);
		}
		catch (RuntimeException ex) {
			failure.addSuppressed(ex);
		}
	}

	/**
	 * Release the lock now, or, with {@code holdAtLeast}, once that long has passed since
	 * it was acquired (a lock that is not held any more is released at once).
	 */
	private void closeHoldingAtLeast(Handle handle, boolean held) {
		if (!held || this.holdAtLeast.isZero()) {
			handle.close();
			return;
		}
		handle.closeAfter(this.holdAtLeast.minus(Duration.between(handle.acquiredAt(), Instant.now())));
	}

	/**
	 * Release the lock, adding a release failure to the given exception.
	 * @param handle the handle of the call
	 * @param failure where a release failure goes, or {@code null} to drop it
	 */
	static void release(Handle handle, @Nullable Throwable failure) {
		try {
			handle.close();
		}
		catch (RuntimeException ex) {
			if (failure != null) {
				failure.addSuppressed(ex);
			}
		}
	}

	String describePaths() {
		return (this.paths.size() == 1) ? "lock '" + this.paths.get(0) + "'" : "locks " + this.paths;
	}

	/** The failure a future completed with, without the wrappers futures add. */
	static Throwable unwrap(Throwable ex) {
		Throwable cause = ex;
		while ((cause instanceof CompletionException || cause instanceof ExecutionException)
				&& cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

}
