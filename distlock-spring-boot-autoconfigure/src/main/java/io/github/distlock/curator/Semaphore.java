package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * Counting semaphore over Curator's {@code InterProcessSemaphoreV2}. Curator trusts every
 * client to pass the same number of leases; here the number is written into the
 * semaphore's node, and a client declaring another number is refused instead of silently
 * admitting more holders.
 */
final class Semaphore extends CuratorLock<Semaphore.State> {

	private final int permits;

	Semaphore(CuratorLocks locks, RecipeCache<State> cache, LockPath path, int permits) {
		super(locks, cache, LockKind.SEMAPHORE, path);
		if (permits < 1) {
			throw new LockConfigurationException(
					"Semaphore '" + path + "' needs at least 1 permit, but " + permits + " were given");
		}
		this.permits = permits;
	}

	@Override
	State newRecipe(String nodePath) {
		InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(locks().client(), nodePath, this.permits);
		semaphore.setNodeData(locks().identity().processNodeData());
		return new State(locks().client(), semaphore, this.permits);
	}

	@Override
	Hold reenter(State state) {
		// Each acquisition takes a permit of its own: a semaphore is not reentrant.
		return null;
	}

	@Override
	Object attempt(State state, long timeoutNanos) throws Exception {
		state.checkPermits(path(), nodePath(), this.permits);
		Lease lease = (timeoutNanos < 0) ? state.semaphore.acquire()
				: state.semaphore.acquire(timeoutNanos, TimeUnit.NANOSECONDS);
		return lease;
	}

	@Override
	LockNode lockNode(State state, Object acquisition) throws Exception {
		return Leases.node(state.client, nodePath(), (Lease) acquisition);
	}

	@Override
	void release(State state, Object acquisition, Thread owner) throws Exception {
		((Lease) acquisition).close();
	}

	@Override
	boolean isHeldByCurrentThread(State state) {
		return false;
	}

	@Override
	boolean queuesLocally() {
		return false;
	}

	@Override
	boolean releasableByOtherThreads() {
		return true;
	}

	/**
	 * The cached recipe of one path. Its number of permits is fixed by the first caller
	 * that creates it; every later caller must declare the same number.
	 */
	static final class State {

		private final CuratorFramework client;

		private final InterProcessSemaphoreV2 semaphore;

		private final int permits;

		private volatile boolean verified;

		State(CuratorFramework client, InterProcessSemaphoreV2 semaphore, int permits) {
			this.client = client;
			this.semaphore = semaphore;
			this.permits = permits;
		}

		void checkPermits(LockPath path, String nodePath, int declared) throws Exception {
			if (declared != this.permits) {
				throw mismatch(path, declared, this.permits, "another caller in this application");
			}
			if (this.verified) {
				return;
			}
			synchronized (this) {
				if (!this.verified) {
					verifyAgainstZooKeeper(path, nodePath, declared);
					this.verified = true;
				}
			}
		}

		private void verifyAgainstZooKeeper(LockPath path, String nodePath, int declared) throws Exception {
			byte[] mine = Integer.toString(declared).getBytes(StandardCharsets.UTF_8);
			for (int attempt = 0; attempt < 5; attempt++) {
				Stat stat = new Stat();
				byte[] stored;
				try {
					stored = this.client.getData().storingStatIn(stat).forPath(nodePath);
				}
				catch (KeeperException.NoNodeException ex) {
					try {
						this.client.create()
							.creatingParentContainersIfNeeded()
							.withMode(CreateMode.CONTAINER)
							.forPath(nodePath, mine);
						return;
					}
					catch (KeeperException.NodeExistsException raced) {
						continue;
					}
				}
				if (stored == null || stored.length == 0) {
					// Created by Curator (or another library) without a declared number:
					// claim it.
					try {
						this.client.setData().withVersion(stat.getVersion()).forPath(nodePath, mine);
						return;
					}
					catch (KeeperException.BadVersionException raced) {
						continue;
					}
				}
				String text = new String(stored, StandardCharsets.UTF_8);
				if (!text.equals(Integer.toString(declared))) {
					throw mismatch(path, declared, parse(text), "another node (ZooKeeper node " + nodePath + ")");
				}
				return;
			}
			throw new IllegalStateException("Could not settle the permits of semaphore '" + path + "'");
		}

		private static int parse(String text) {
			try {
				return Integer.parseInt(text);
			}
			catch (NumberFormatException ex) {
				return -1;
			}
		}

		private static LockConfigurationException mismatch(LockPath path, int declared, int existing, String where) {
			return new LockConfigurationException(
					"Semaphore '" + path + "' is declared here with " + declared + " permits, but with " + existing
							+ " by " + where + "; every user of a semaphore must declare the same number of permits");
		}

	}

}
