package io.github.distlock.curator;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;

/**
 * {@link Locks} backed by Apache Curator's lock recipes on one {@link CuratorFramework}
 * client, which stands for one node of the cluster: its threads compete with each other
 * and with every other client's.
 * <p>
 * Lock nodes live under the client's namespace, in one subtree per {@link LockKind}.
 * Recipe instances are shared by all threads using a path and dropped when nobody holds
 * or waits for it. Lock parents are container nodes, so ZooKeeper reaps per-key paths
 * once they are empty.
 */
public final class CuratorLocks implements Locks, AutoCloseable {

	private final CuratorFramework client;

	private final Duration defaultWaitTime;

	private final HolderIdentity identity;

	private final DeadlineWatchdog watchdog = new DeadlineWatchdog();

	private final RecipeCache<ReentrantMutex.State> mutexes;

	private final RecipeCache<SemaphoreMutex.State> semaphoreMutexes;

	/**
	 * Create locks on the given client.
	 * @param client a started client; its namespace is the lock root
	 * @param defaultWaitTime wait time for callers that do not give one
	 */
	public CuratorLocks(CuratorFramework client, Duration defaultWaitTime) {
		this(client, defaultWaitTime, "application");
	}

	/**
	 * Create locks on the given client.
	 * @param client a started client; its namespace is the lock root
	 * @param defaultWaitTime wait time for callers that do not give one
	 * @param applicationName name written into lock nodes to tell who holds them
	 */
	public CuratorLocks(CuratorFramework client, Duration defaultWaitTime, String applicationName) {
		this.client = client;
		this.defaultWaitTime = defaultWaitTime;
		this.identity = new HolderIdentity(applicationName);
		this.mutexes = new RecipeCache<>(
				(nodePath) -> new ReentrantMutex.State(FencingMutex.create(client, nodePath, this.identity)));
		this.semaphoreMutexes = new RecipeCache<>((nodePath) -> {
			InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client, nodePath, 1);
			semaphore.setNodeData(this.identity.currentNodeData());
			return new SemaphoreMutex.State(client, semaphore);
		});
	}

	@Override
	public ClusterLock mutex(LockPath path) {
		return new ReentrantMutex(this, this.mutexes, path);
	}

	@Override
	public ClusterLock nonReentrantMutex(LockPath path) {
		return new SemaphoreMutex(this, this.semaphoreMutexes, path);
	}

	@Override
	public Duration defaultWaitTime() {
		return this.defaultWaitTime;
	}

	/** The client these locks live on. */
	public CuratorFramework client() {
		return this.client;
	}

	DeadlineWatchdog watchdog() {
		return this.watchdog;
	}

	/** Number of recipe instances currently cached, held or waited for. */
	int cachedRecipes() {
		return this.mutexes.size() + this.semaphoreMutexes.size();
	}

	/**
	 * Stop the deadline watchdog. Locks still held stay held until released or until the
	 * client's session ends; the client itself is not closed.
	 */
	@Override
	public void close() {
		this.watchdog.close();
	}

}
