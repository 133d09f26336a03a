package io.github.distlock.testsupport;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockScope;

/**
 * A lock that forwards every call to another, for tests that change one of them
 * (reentrancy included, so that a multi-lock sees the policy of the lock it wraps).
 */
public class ForwardingLock implements ClusterLock {

	private final ClusterLock lock;

	public ForwardingLock(ClusterLock lock) {
		this.lock = lock;
	}

	/** The lock every call goes to. */
	protected final ClusterLock delegate() {
		return this.lock;
	}

	@Override
	public LockPath path() {
		return this.lock.path();
	}

	@Override
	public LockKind kind() {
		return this.lock.kind();
	}

	@Override
	public boolean isReentrant() {
		return this.lock.isReentrant();
	}

	@Override
	public LockHandle acquire(Duration waitTime) {
		return this.lock.acquire(waitTime);
	}

	@Override
	public CompletableFuture<LockHandle> acquireAsync(Duration waitTime) {
		return this.lock.acquireAsync(waitTime);
	}

	@Override
	public CompletableFuture<LockHandle> acquireAsync(Duration waitTime, LockScope scope) {
		return this.lock.acquireAsync(waitTime, scope);
	}

	@Override
	public boolean isHeldByCurrentThread() {
		return this.lock.isHeldByCurrentThread();
	}

}
