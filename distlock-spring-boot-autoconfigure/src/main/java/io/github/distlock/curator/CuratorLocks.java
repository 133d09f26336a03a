package io.github.distlock.curator;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.ClusterReadWriteLock;
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

	private final RecipeCache<ReentrantMutex.State> mutexes = new RecipeCache<>();

	private final RecipeCache<SemaphoreMutex.State> semaphoreMutexes = new RecipeCache<>();

	private final RecipeCache<ReadWriteSide.State> readWriteLocks = new RecipeCache<>();

	private final RecipeCache<Semaphore.State> semaphores = new RecipeCache<>();

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
	public ClusterReadWriteLock readWrite(LockPath path) {
		ReadWriteSide read = new ReadWriteSide(this, this.readWriteLocks, path, false);
		ReadWriteSide write = new ReadWriteSide(this, this.readWriteLocks, path, true);
		return new ClusterReadWriteLock() {

			@Override
			public LockPath path() {
				return path;
			}

			@Override
			public ClusterLock readLock() {
				return read;
			}

			@Override
			public ClusterLock writeLock() {
				return write;
			}

		};
	}

	@Override
	public ClusterLock semaphore(LockPath path, int permits) {
		return new Semaphore(this, this.semaphores, path, permits);
	}

	@Override
	public Duration defaultWaitTime() {
		return this.defaultWaitTime;
	}

	/** The client these locks live on. */
	public CuratorFramework client() {
		return this.client;
	}

	HolderIdentity identity() {
		return this.identity;
	}

	DeadlineWatchdog watchdog() {
		return this.watchdog;
	}

	/** Number of recipe instances currently cached, held or waited for. */
	int cachedRecipes() {
		return this.mutexes.size() + this.semaphoreMutexes.size() + this.readWriteLocks.size() + this.semaphores.size();
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
