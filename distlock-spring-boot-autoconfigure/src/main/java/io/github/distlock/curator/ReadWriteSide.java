package io.github.distlock.curator;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.zookeeper.data.Stat;

import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockUpgradeException;

/**
 * One side of Curator's {@code InterProcessReadWriteLock}; both sides of a path share one
 * recipe instance per client, as Curator's downgrade check (a writer may read) needs.
 */
final class ReadWriteSide extends CuratorLock<ReadWriteSide.State> {

	private final boolean write;

	ReadWriteSide(CuratorLocks locks, RecipeCache<State> cache, LockPath path, boolean write) {
		super(locks, cache, write ? LockKind.WRITE : LockKind.READ, path);
		this.write = write;
	}

	private InterProcessMutex side(State state) {
		return this.write ? state.lock.writeLock() : state.lock.readLock();
	}

	private Map<Thread, Hold> holds(State state) {
		return this.write ? state.writeHolds : state.readHolds;
	}

	@Override
	State newRecipe(String nodePath) {
		CuratorFramework client = locks().client();
		return new State(client, new InterProcessReadWriteLock(client, nodePath, locks().identity().processNodeData()));
	}

	@Override
	Hold reenter(State state) {
		Thread current = Thread.currentThread();
		Hold hold = holds(state).get(current);
		if (hold != null) {
			try {
				// Re-entry is local to the recipe: no ZooKeeper call.
				side(state).acquire();
			}
			catch (Exception ex) {
				throw new IllegalStateException("Re-entering a held lock failed", ex);
			}
			return hold;
		}
		if (this.write && state.readHolds.containsKey(current)) {
			throw new LockUpgradeException("Thread '" + current.getName() + "' holds the read lock '" + path()
					+ "' and asked for its write lock: the writer would wait for this very reader forever. "
					+ "Release the read lock first, or take the write lock from the start (a writer may also read)");
		}
		return null;
	}

	@Override
	Object attempt(State state, long timeoutNanos) throws Exception {
		InterProcessMutex side = side(state);
		if (timeoutNanos < 0) {
			side.acquire();
			return ACQUIRED;
		}
		return side.acquire(timeoutNanos, TimeUnit.NANOSECONDS) ? ACQUIRED : null;
	}

	@Override
	LockNode lockNode(State state, Object acquisition) throws Exception {
		String lockPath = this.write ? state.lock.writeLock().getLockPath() : state.lock.readLock().getLockPath();
		Stat stat = state.client.checkExists().forPath(lockPath);
		if (stat == null) {
			throw new IllegalStateException("Lock node " + lockPath + " vanished right after it was acquired");
		}
		return LockNode.of(stat);
	}

	@Override
	void onHeld(State state, Hold hold) {
		holds(state).put(Thread.currentThread(), hold);
	}

	@Override
	void release(State state, Object acquisition, Thread owner) throws Exception {
		InterProcessMutex side = side(state);
		try {
			side.release();
		}
		finally {
			if (!side.isOwnedByCurrentThread()) {
				holds(state).remove(owner);
			}
		}
	}

	@Override
	boolean isHeldByCurrentThread(State state) {
		return side(state).isOwnedByCurrentThread();
	}

	@Override
	boolean queuesLocally() {
		return this.write;
	}

	@Override
	boolean releasableByOtherThreads() {
		return false;
	}

	/**
	 * The cached recipe of one path, with the outermost hold of each thread on each side.
	 */
	static final class State {

		private final CuratorFramework client;

		private final InterProcessReadWriteLock lock;

		private final Map<Thread, Hold> readHolds = new ConcurrentHashMap<>();

		private final Map<Thread, Hold> writeHolds = new ConcurrentHashMap<>();

		State(CuratorFramework client, InterProcessReadWriteLock lock) {
			this.client = client;
			this.lock = lock;
		}

	}

}
