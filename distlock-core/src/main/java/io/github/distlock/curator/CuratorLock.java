package io.github.distlock.curator;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockScope;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.Locks;
import io.github.distlock.core.LocksDrainingException;

/**
 * A lock of the engine at one path: the entry points of the programmatic API. Each
 * acquisition asks its {@link LockScope} first (re-entry, or a refusal that needs no
 * waiting), then starts an {@link Acquisition} and hands its {@link Hold} to the scope.
 * {@link #acquire(Duration)} parks the calling thread on the acquisition's outcome;
 * {@link #acquireAsync(Duration, LockScope)} completes its future on the engine's
 * executor, so that no caller's code ever runs on a ZooKeeper thread.
 */
final class CuratorLock implements ClusterLock {

	private final Locks locks;

	private final Engine engine;

	private final LockKind kind;

	private final LockPath path;

	private final String queuePath;

	private final int permits;

	private final boolean reentrant;

	CuratorLock(Locks locks, Engine engine, LockKind kind, LockPath path, int permits, boolean reentrant) {
		if (kind == LockKind.SEMAPHORE && permits < 1) {
			throw new LockConfigurationException(
					"Semaphore '" + path + "' needs at least 1 permit, but " + permits + " were given");
		}
		this.locks = locks;
		this.engine = engine;
		this.kind = kind;
		this.path = path;
		this.queuePath = QueuePaths.of(kind, path);
		this.permits = permits;
		this.reentrant = reentrant;
	}

	@Override
	public LockPath path() {
		return this.path;
	}

	@Override
	public LockKind kind() {
		return this.kind;
	}

	@Override
	public boolean isHeldByCurrentThread() {
		return LockScope.currentThread().holdOf(this.locks, this.kind, this.path) != null;
	}

	@Override
	public boolean isReentrant() {
		return this.reentrant;
	}

	@Override
	public LockHandle acquire(Duration waitTime) {
		refuseIfClosed();
		LockScope scope = LockScope.currentThread();
		LockHandle reentered = scope.reenter(this.locks, this.kind, this.path, this.reentrant);
		if (reentered != null) {
			return reentered;
		}
		refuseIfDraining();
		Acquisition acquisition = newAcquisition(waitTime, scope);
		Hold hold = await(acquisition);
		return scope.adopt(this.locks, this.kind, this.path, hold, this.reentrant);
	}

	@Override
	public CompletableFuture<LockHandle> acquireAsync(Duration waitTime) {
		return acquireAsync(waitTime, LockScope.create(Thread.currentThread().getName() + " (async)"));
	}

	@Override
	public CompletableFuture<LockHandle> acquireAsync(Duration waitTime, LockScope scope) {
		Acquisition acquisition;
		try {
			refuseIfClosed();
			LockHandle reentered = scope.reenter(this.locks, this.kind, this.path, this.reentrant);
			if (reentered != null) {
				return CompletableFuture.completedFuture(reentered);
			}
			refuseIfDraining();
			acquisition = newAcquisition(waitTime, scope);
		}
		catch (DistributedLockException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		CompletableFuture<Hold> outcome = start(acquisition);
		CompletableFuture<LockHandle> result = new CompletableFuture<>();
		result.whenComplete((handle, ex) -> {
			if (ex instanceof CancellationException) {
				outcome.cancel(false);
			}
		});
		outcome.whenComplete((hold, ex) -> this.engine.threads()
			.complete(() -> deliver(acquisition, scope, hold, (ex != null) ? unwrap(ex) : null, result)));
		return result;
	}

	private void deliver(Acquisition acquisition, LockScope scope, @Nullable Hold hold, @Nullable Throwable ex,
			CompletableFuture<LockHandle> result) {
		if (ex != null) {
			report(acquisition, ex);
			result.completeExceptionally(ex);
			return;
		}
		if (!hold.deliver()) {
			LockLostException lost = lostAsGranted(hold);
			tell(acquisition, (events) -> events.failed(lost));
			result.completeExceptionally(lost);
			return;
		}
		LockHandle handle = scope.adopt(this.locks, this.kind, this.path, hold, this.reentrant);
		if (!result.complete(handle)) {
			handle.close();
		}
	}

	private void refuseIfClosed() {
		if (this.engine.isClosed()) {
			throw new LockAcquisitionException(
					"Lock '" + this.path + "' cannot be acquired: the locks of this client were closed", null);
		}
	}

	/**
	 * A re-entry of a lock held takes no new lock, so it is not refused: only new
	 * acquisitions are (a downgrade's read lock is a new node, so it is).
	 */
	private void refuseIfDraining() {
		Drain drain = this.engine.drain();
		LocksDrainingException draining = (drain.since != null) ? drain.refusal(this.path) : null;
		if (draining != null) {
			throw draining;
		}
	}

	/**
	 * Start the acquisition; if a drain began after the check, it may have failed the
	 * acquisitions in flight before this one was followed, so this one fails here.
	 */
	private CompletableFuture<Hold> start(Acquisition acquisition) {
		CompletableFuture<Hold> outcome = acquisition.start();
		Drain drain = this.engine.drain();
		LocksDrainingException draining = (drain.since != null) ? drain.refusal(this.path) : null;
		if (draining != null) {
			acquisition.fail(draining);
		}
		return outcome;
	}

	private Acquisition newAcquisition(Duration waitTime, LockScope scope) {
		String holder = scope.name();
		return switch (this.kind) {
			case MUTEX -> new Acquisition(this.engine, this.kind, this.path, this.queuePath, QueueDriver.MUTEX, holder,
					waitTime, true, null);
			case WRITE -> new Acquisition(this.engine, this.kind, this.path, this.queuePath, QueueDriver.WRITE, holder,
					waitTime, true, null);
			case READ -> new Acquisition(this.engine, this.kind, this.path, this.queuePath, QueueDriver.READ, holder,
					waitTime, false, downgrade(scope));
			case SEMAPHORE ->
				new SemaphoreAcquisition(this.engine, this.path, this.queuePath, this.permits, holder, waitTime);
			case LEADER -> throw new IllegalStateException("Leadership is not a lock: see CuratorLeadership");
		};
	}

	/**
	 * The write lock the scope holds at this path, if it does: its reader enters that
	 * hold (a downgrade), held at once, sorted at the write lock's place and carrying its
	 * token. A write lock that is not held any more is not entered: its read lock would
	 * be handed out beside the writer that took over (invariant 3,
	 * docs/failure-model.md).
	 */
	private @Nullable Downgrade downgrade(LockScope scope) {
		LockHandle write = scope.holdOf(this.locks, LockKind.WRITE, this.path);
		if (!(write instanceof Hold hold)) {
			return null;
		}
		LockState state = hold.state();
		if (state != LockState.HELD) {
			throw new LockLostException("Lock '" + this.path + "' is held for writing by " + scope.name() + " but is "
					+ state + ": its read lock is not handed out, since a downgrade only enters a "
					+ "write lock that is held");
		}
		return new Downgrade(hold);
	}

	/**
	 * Wait for the acquisition's outcome. An interrupt abandons the acquisition (or
	 * releases the lock granted at the same moment) and keeps the thread's interrupt
	 * flag.
	 */
	private Hold await(Acquisition acquisition) {
		CompletableFuture<Hold> outcome = start(acquisition);
		Hold hold;
		try {
			hold = outcome.get();
		}
		catch (InterruptedException ex) {
			if (outcome.cancel(false)) {
				tell(acquisition, AcquisitionEvents::cancelled);
			}
			else if (outcome.isCompletedExceptionally()) {
				report(acquisition, unwrap(outcome.handle((ignored, failure) -> failure).join()));
			}
			else {
				// Granted at the same moment: not handed out, so released at once.
				outcome.join().close();
				tell(acquisition, AcquisitionEvents::cancelled);
			}
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException("Interrupted while waiting for lock '" + this.path
					+ "'; the acquisition was abandoned and the lock is not held", ex);
		}
		catch (ExecutionException ex) {
			Throwable cause = unwrap(ex);
			report(acquisition, cause);
			if (cause instanceof DistributedLockException distlock) {
				throw rethrown(distlock);
			}
			throw new LockAcquisitionException("Acquiring lock '" + this.path + "' failed: " + cause, cause);
		}
		if (!hold.deliver()) {
			LockLostException lost = lostAsGranted(hold);
			tell(acquisition, (events) -> events.failed(lost));
			throw lost;
		}
		return hold;
	}

	/**
	 * The outcome's exception, created on another thread: the caller gets a copy whose
	 * stack trace shows its own call, with the original as the cause.
	 */
	private static DistributedLockException rethrown(DistributedLockException ex) {
		if (ex instanceof LockTimeoutException timeout) {
			return new LockTimeoutException(timeout.getMessage(), timeout.getPath(), timeout.getWaitTime(), timeout);
		}
		return ex;
	}

	private LockLostException lostAsGranted(Hold hold) {
		return new LockLostException("Lock '" + this.path + "' was granted, but its session ended or its "
				+ "connection was suspended before it could be handed out; it is not held. Try again");
	}

	private static void report(Acquisition acquisition, Throwable ex) {
		if (ex instanceof CancellationException) {
			tell(acquisition, AcquisitionEvents::cancelled);
		}
		else if (ex instanceof LockTimeoutException) {
			tell(acquisition, AcquisitionEvents::timedOut);
		}
		else {
			tell(acquisition, (events) -> events.failed(ex));
		}
	}

	// Listeners are told only if there are some.
	private static void tell(Acquisition acquisition, Consumer<AcquisitionEvents> what) {
		AcquisitionEvents events = acquisition.events();
		if (events != null) {
			what.accept(events);
		}
	}

	private static Throwable unwrap(Throwable ex) {
		Throwable cause = ex;
		while ((cause instanceof CompletionException || cause instanceof ExecutionException)
				&& cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause;
	}

	@Override
	public String toString() {
		return (this.kind == LockKind.MUTEX && !this.reentrant) ? "non-reentrant MUTEX '" + this.path + "'"
				: this.kind + " '" + this.path + "'";
	}

}
