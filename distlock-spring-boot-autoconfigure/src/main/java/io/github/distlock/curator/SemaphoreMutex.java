package io.github.distlock.curator;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.zookeeper.data.Stat;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockReentryException;

/**
 * Non-reentrant mutex: Curator's {@code InterProcessSemaphoreV2} with a single lease,
 * which is exactly what {@code InterProcessSemaphoreMutex} is built on (the node layout
 * is the same), used directly so that the lease node, and with it the fencing token, can
 * be read. A holder asking again is refused at once instead of waiting for itself.
 */
final class SemaphoreMutex extends CuratorLock<SemaphoreMutex.State> {

	SemaphoreMutex(CuratorLocks locks, RecipeCache<State> cache, LockPath path) {
		super(locks, cache, LockKind.NON_REENTRANT_MUTEX, path);
	}

	@Override
	LockHandle reenter(State state, RecipeCache.Entry<State> entry) {
		if (state.holder == Thread.currentThread()) {
			throw new LockReentryException("Lock '" + path() + "' is not reentrant and thread '"
					+ Thread.currentThread().getName() + "' already holds it; asking again would wait for itself");
		}
		return null;
	}

	@Override
	boolean attempt(State state, long timeoutNanos) throws Exception {
		Lease lease = (timeoutNanos < 0) ? state.semaphore.acquire()
				: state.semaphore.acquire(timeoutNanos, TimeUnit.NANOSECONDS);
		if (lease == null) {
			return false;
		}
		state.lease = lease;
		state.holder = Thread.currentThread();
		return true;
	}

	@Override
	Hold firstHold(State state) throws Exception {
		// Curator's lease nodes live in the "leases" child of the semaphore's path.
		String leasePath = nodePath() + "/leases/" + state.lease.getNodeName();
		Stat stat = state.client.checkExists().forPath(leasePath);
		if (stat == null) {
			throw new IllegalStateException(
					"Lease node " + state.lease.getNodeName() + " vanished right after it was acquired");
		}
		return new Hold(stat.getCzxid(), Instant.now());
	}

	@Override
	void release(State state, Thread owner) throws Exception {
		Lease lease = state.lease;
		state.lease = null;
		state.holder = null;
		if (lease != null) {
			lease.close();
		}
	}

	@Override
	boolean isHeldByCurrentThread(State state) {
		return state.holder == Thread.currentThread();
	}

	@Override
	boolean releasableByOtherThreads() {
		return true;
	}

	/**
	 * The cached recipe of one path, with its current lease and holder.
	 */
	static final class State {

		private final CuratorFramework client;

		private final InterProcessSemaphoreV2 semaphore;

		private volatile Lease lease;

		private volatile Thread holder;

		State(CuratorFramework client, InterProcessSemaphoreV2 semaphore) {
			this.client = client;
			this.semaphore = semaphore;
		}

	}

}
