package io.github.distlock.curator;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * Reentrant, FIFO-fair mutex over Curator's {@code InterProcessMutex}. Re-entry by the
 * holding thread is counted locally and keeps the outermost acquisition's fencing token.
 */
final class ReentrantMutex extends CuratorLock<ReentrantMutex.State> {

	ReentrantMutex(CuratorLocks locks, RecipeCache<State> cache, LockPath path) {
		super(locks, cache, LockKind.MUTEX, path);
	}

	@Override
	State newRecipe(String nodePath) {
		return new State(FencingMutex.create(locks().client(), nodePath, locks().identity()));
	}

	@Override
	Hold reenter(State state) {
		Hold hold = state.holds.get(Thread.currentThread());
		if (hold == null) {
			return null;
		}
		try {
			// Re-entry is local to the recipe: no ZooKeeper call.
			state.mutex.acquire();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Re-entering a held mutex failed", ex);
		}
		return hold;
	}

	@Override
	Object attempt(State state, long timeoutNanos) throws Exception {
		if (timeoutNanos < 0) {
			state.mutex.acquire();
			return ACQUIRED;
		}
		return state.mutex.acquire(timeoutNanos, TimeUnit.NANOSECONDS) ? ACQUIRED : null;
	}

	@Override
	LockNode lockNode(State state, Object acquisition) throws Exception {
		return state.mutex.currentNode();
	}

	@Override
	void onHeld(State state, Hold hold) {
		state.holds.put(Thread.currentThread(), hold);
	}

	@Override
	void release(State state, Object acquisition, Thread owner) throws Exception {
		try {
			state.mutex.release();
		}
		finally {
			if (!state.mutex.isOwnedByCurrentThread()) {
				state.holds.remove(owner);
			}
		}
	}

	@Override
	boolean isHeldByCurrentThread(State state) {
		return state.mutex.isOwnedByCurrentThread();
	}

	@Override
	boolean queuesLocally() {
		return true;
	}

	@Override
	boolean releasableByOtherThreads() {
		return false;
	}

	/**
	 * The cached recipe of one path, with the outermost hold of each holding thread.
	 */
	static final class State {

		private final FencingMutex mutex;

		private final Map<Thread, Hold> holds = new ConcurrentHashMap<>();

		State(FencingMutex mutex) {
			this.mutex = mutex;
		}

	}

}
