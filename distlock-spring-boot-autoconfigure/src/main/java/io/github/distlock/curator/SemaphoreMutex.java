package io.github.distlock.curator;

import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;

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
	State newRecipe(String nodePath) {
		InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(locks().client(), nodePath, 1);
		semaphore.setNodeData(locks().identity().processNodeData());
		return new State(locks().client(), semaphore);
	}

	@Override
	Hold reenter(State state) {
		if (state.holder == Thread.currentThread()) {
			throw new LockReentryException("Lock '" + path() + "' is not reentrant and thread '"
					+ Thread.currentThread().getName() + "' already holds it; asking again would wait for itself");
		}
		return null;
	}

	@Override
	Object attempt(State state, long timeoutNanos) throws Exception {
		Lease lease = (timeoutNanos < 0) ? state.semaphore.acquire()
				: state.semaphore.acquire(timeoutNanos, TimeUnit.NANOSECONDS);
		if (lease != null) {
			state.holder = Thread.currentThread();
		}
		return lease;
	}

	@Override
	LockNode lockNode(State state, Object acquisition) throws Exception {
		return Leases.node(state.client, nodePath(), (Lease) acquisition);
	}

	@Override
	void release(State state, Object acquisition, Thread owner) throws Exception {
		state.holder = null;
		((Lease) acquisition).close();
	}

	@Override
	boolean isHeldByCurrentThread(State state) {
		return state.holder == Thread.currentThread();
	}

	@Override
	boolean queuesLocally() {
		return true;
	}

	@Override
	boolean releasableByOtherThreads() {
		return true;
	}

	/**
	 * The cached recipe of one path, with its current holder.
	 */
	static final class State {

		private final CuratorFramework client;

		private final InterProcessSemaphoreV2 semaphore;

		private volatile Thread holder;

		State(CuratorFramework client, InterProcessSemaphoreV2 semaphore) {
			this.client = client;
			this.semaphore = semaphore;
		}

	}

}
