package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockScope;
import io.github.distlock.core.Locks;
import io.github.distlock.core.NotLeaderException;

/**
 * The tenure of a group seen as a lock, for the executors of locked calls: "acquired" at
 * once while this instance leads, never waited for. The handle is the tenure's, adopted
 * by the caller's {@link LockScope} so that {@link io.github.distlock.core.LockContext}
 * sees it (its fencing token is the epoch); its state turns {@code LOST} when the tenure
 * ends. Not leading is a {@link NotLeaderException}, which the call's {@link NotAcquired
 * decision} turns into the empty value ({@code onNotLeader = SKIP}) or gives to the
 * caller ({@code THROW}).
 */
final class LeaderOnlyLock implements ClusterLock {

	private final Leadership leadership;

	private final Locks locks;

	private final LockPath path;

	private final LeaderOnlyOperation operation;

	LeaderOnlyLock(Leadership leadership, Locks locks, LockPath path, LeaderOnlyOperation operation) {
		this.leadership = leadership;
		this.locks = locks;
		this.path = path;
		this.operation = operation;
	}

	@Override
	public LockPath path() {
		return this.path;
	}

	@Override
	public LockKind kind() {
		return LockKind.LEADER;
	}

	@Override
	public LockHandle acquire(Duration waitTime) {
		return enter(LockScope.currentThread());
	}

	@Override
	public CompletableFuture<LockHandle> acquireAsync(Duration waitTime) {
		return acquireAsync(waitTime, LockScope.create("leader of " + this.path));
	}

	@Override
	public CompletableFuture<LockHandle> acquireAsync(Duration waitTime, LockScope scope) {
		try {
			return CompletableFuture.completedFuture(enter(scope));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

	private LockHandle enter(LockScope scope) {
		Optional<LockHandle> tenure = this.leadership.tenure(this.path.value());
		if (tenure.isPresent() && !tenure.get().isHeld()) {
			// Ended just now: give the handle back, a leaving leader waits for open ones.
			tenure.get().close();
			tenure = Optional.empty();
		}
		if (tenure.isEmpty()) {
			throw new NotLeaderException(this.operation.description() + ": this instance does not lead group '"
					+ this.path.value() + "'; the method did not run", this.path.value());
		}
		return scope.adopt(this.locks, LockKind.LEADER, this.path, tenure.get(), true);
	}

	@Override
	public boolean isHeldByCurrentThread() {
		return LockScope.currentThread().holdOf(this.locks, LockKind.LEADER, this.path) != null;
	}

}
