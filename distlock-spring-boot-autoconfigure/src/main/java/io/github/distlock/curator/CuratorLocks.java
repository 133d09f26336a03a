package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.ClusterReadWriteLock;
import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LockState;
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

	private static final Logger logger = LoggerFactory.getLogger(CuratorLocks.class);

	private final CuratorFramework client;

	private final Duration defaultWaitTime;

	private final HolderIdentity identity;

	private final DeadlineWatchdog watchdog = new DeadlineWatchdog();

	private final ConnectionLossPolicy connectionLossPolicy;

	private final Set<Hold> holds = ConcurrentHashMap.newKeySet();

	/** Number of session losses seen, to catch acquisitions that spanned one. */
	private final java.util.concurrent.atomic.AtomicLong sessionLosses = new java.util.concurrent.atomic.AtomicLong();

	private final List<Consumer<HeldLock>> lossListeners = new CopyOnWriteArrayList<>();

	private final ConnectionStateListener connectionListener = (client, state) -> connectionStateChanged(state);

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
		this(client, defaultWaitTime, applicationName, ConnectionLossPolicy.SUSPENDED);
	}

	/**
	 * Create locks on the given client.
	 * @param client a started client; its namespace is the lock root
	 * @param defaultWaitTime wait time for callers that do not give one
	 * @param applicationName name written into lock nodes to tell who holds them
	 * @param connectionLossPolicy when a held lock counts as lost
	 */
	public CuratorLocks(CuratorFramework client, Duration defaultWaitTime, String applicationName,
			ConnectionLossPolicy connectionLossPolicy) {
		this.client = client;
		this.defaultWaitTime = defaultWaitTime;
		this.identity = new HolderIdentity(applicationName);
		this.connectionLossPolicy = connectionLossPolicy;
		client.getConnectionStateListenable().addListener(this.connectionListener);
	}

	private void connectionStateChanged(ConnectionState state) {
		switch (state) {
			case SUSPENDED -> this.holds.forEach((hold) -> {
				hold.suspended(this.connectionLossPolicy == ConnectionLossPolicy.SUSPENDED);
				if (hold.state() == LockState.LOST) {
					notifyLost(hold);
				}
			});
			case LOST -> {
				this.sessionLosses.incrementAndGet();
				this.holds.forEach((hold) -> {
					if (hold.lost()) {
						notifyLost(hold);
					}
				});
			}
			case RECONNECTED -> this.holds.forEach(Hold::reconnected);
			default -> {
			}
		}
	}

	private void notifyLost(Hold hold) {
		HeldLock lost = hold.snapshot();
		logger.warn("Lost {} '{}' held by thread '{}' since {}", lost.kind(), lost.path(), lost.thread(), lost.since());
		for (Consumer<HeldLock> listener : this.lossListeners) {
			try {
				listener.accept(lost);
			}
			catch (RuntimeException ex) {
				logger.warn("Lock loss listener failed", ex);
			}
		}
	}

	/**
	 * Add a listener told of every held lock that becomes lost.
	 * @param listener the listener; called on Curator's event thread, so it must be quick
	 */
	public void addLossListener(Consumer<HeldLock> listener) {
		this.lossListeners.add(listener);
	}

	/** Number of session losses seen so far; see {@link #register(Hold, long)}. */
	long sessionLosses() {
		return this.sessionLosses.get();
	}

	/**
	 * Track a new hold.
	 * @param hold the hold
	 * @param sessionLossesBefore {@link #sessionLosses()} read before the acquisition
	 * began: if the session was lost since, the lock node may belong to the dead session
	 * (Curator can grant it through the new one until ZooKeeper deletes it), so the hold
	 * counts as lost
	 */
	void register(Hold hold, long sessionLossesBefore) {
		this.holds.add(hold);
		if (this.sessionLosses.get() != sessionLossesBefore && hold.lost()) {
			notifyLost(hold);
			return;
		}
		// The connection may have dropped between the acquisition and now.
		if (!this.client.getZookeeperClient().isConnected()) {
			hold.suspended(this.connectionLossPolicy == ConnectionLossPolicy.SUSPENDED);
		}
	}

	void unregister(Hold hold) {
		this.holds.remove(hold);
	}

	@Override
	public List<HeldLock> heldLocks() {
		return this.holds.stream().map(Hold::snapshot).toList();
	}

	/** When a held lock counts as lost. */
	public ConnectionLossPolicy connectionLossPolicy() {
		return this.connectionLossPolicy;
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
		this.client.getConnectionStateListenable().removeListener(this.connectionListener);
		this.watchdog.close();
	}

}
