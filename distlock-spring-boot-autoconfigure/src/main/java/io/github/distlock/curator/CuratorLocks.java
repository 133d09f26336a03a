package io.github.distlock.curator;

import java.time.Duration;
import java.util.Arrays;
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
import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;
import io.github.distlock.core.WaitingLock;

/**
 * {@link Locks} backed by Apache Curator's lock recipes on one {@link CuratorFramework}
 * client, which stands for one node of the cluster: its threads compete with each other
 * and with every other client's.
 * <p>
 * Lock nodes live under the client's namespace, in one subtree per {@link LockKind}.
 * Recipe instances are shared by all threads using a path; once nobody holds or waits for
 * it, a bounded number are kept for reuse. Lock parents are container nodes, so ZooKeeper
 * reaps per-key paths once they are empty.
 */
public final class CuratorLocks implements Locks, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(CuratorLocks.class);

	private final CuratorFramework client;

	private final Duration defaultWaitTime;

	private final HolderIdentity identity;

	private final DeadlineWatchdog watchdog = new DeadlineWatchdog();

	private final ConnectionLossPolicy connectionLossPolicy;

	private final Set<Hold> holds = ConcurrentHashMap.newKeySet();

	private final List<Consumer<HeldLock>> lossListeners = new CopyOnWriteArrayList<>();

	private final Set<Acquisition> waiting = ConcurrentHashMap.newKeySet();

	private volatile LockEventListener[] eventListeners = {};

	private final ConnectionStateListener connectionListener = (client, state) -> connectionStateChanged(state);

	private final RecipeCache<ReentrantMutex.State> mutexes = new RecipeCache<>(RecipeCache.DEFAULT_MAX_IDLE);

	private final RecipeCache<SemaphoreMutex.State> semaphoreMutexes = new RecipeCache<>(RecipeCache.DEFAULT_MAX_IDLE);

	private final RecipeCache<ReadWriteSide.State> readWriteLocks = new RecipeCache<>(RecipeCache.DEFAULT_MAX_IDLE);

	// A semaphore's recipe remembers the permits it checked against ZooKeeper: it is
	// dropped with its last user, so that the check is made again for the next one.
	private final RecipeCache<Semaphore.State> semaphores = new RecipeCache<>(0);

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
			case LOST -> this.holds.forEach(this::lose);
			case RECONNECTED -> this.holds.forEach((hold) -> {
				// Curator reports no second LOST while it is still in the lost state, so
				// a
				// session that expired again meanwhile shows only here.
				if (!isCurrent(hold)) {
					lose(hold);
				}
				else {
					hold.reconnected();
				}
			});
			default -> {
			}
		}
	}

	/**
	 * Stop listening to connection-state events, so that a test can show that a hold
	 * whose session ended is reported lost even when no event says so (as when Curator
	 * drops a second LOST while it is still in the lost state).
	 */
	void ignoreConnectionStateEvents() {
		this.client.getConnectionStateListenable().removeListener(this.connectionListener);
	}

	private void lose(Hold hold) {
		if (hold.lost()) {
			notifyLost(hold);
		}
	}

	/**
	 * Return what the holder should know about a hold now: its state, or lost if Curator
	 * has replaced the ZooKeeper handle (and so the session) that owns the lock node,
	 * which it does when the session expires, whether or not a connection-state event
	 * said so yet.
	 */
	LockState stateOf(Hold hold) {
		LockState state = hold.state();
		if (state == LockState.HELD && !isCurrent(hold)) {
			lose(hold);
			return LockState.LOST;
		}
		return state;
	}

	private boolean isCurrent(Hold hold) {
		return hold.clientInstance() == this.client.getZookeeperClient().getInstanceIndex();
	}

	/**
	 * Return Curator's instance index of the ZooKeeper handle that owns the given
	 * session, or -1 if the current handle has another session (the given one has
	 * expired).
	 */
	long clientInstanceOwning(long session) throws Exception {
		long before = this.client.getZookeeperClient().getInstanceIndex();
		long current = this.client.getZookeeperClient().getZooKeeper().getSessionId();
		long after = this.client.getZookeeperClient().getInstanceIndex();
		return (current == session && before == after) ? after : -1;
	}

	private void notifyLost(Hold hold) {
		hold.acquisition().lost();
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

	/**
	 * Add a listener told of every acquisition that contends for its lock, its outcome
	 * and, once held, its release or loss (for metrics and tracing).
	 * @param listener the listener; called on the acquiring and releasing threads and on
	 * Curator's event thread, so it must be quick
	 */
	public synchronized void addEventListener(LockEventListener listener) {
		LockEventListener[] current = this.eventListeners;
		LockEventListener[] added = Arrays.copyOf(current, current.length + 1);
		added[current.length] = listener;
		this.eventListeners = added;
	}

	/** Start an acquisition that contends for its lock: it waits until it ends. */
	Acquisition startAcquisition(LockKind kind, LockPath path) {
		LockEventListener[] listeners = this.eventListeners;
		LockEventListener.Attempt events;
		if (listeners.length == 0) {
			events = LockEventListener.Attempt.NONE;
		}
		else if (listeners.length == 1) {
			events = listeners[0].acquiring(kind, path);
		}
		else {
			LockEventListener.Attempt[] attempts = new LockEventListener.Attempt[listeners.length];
			for (int i = 0; i < listeners.length; i++) {
				attempts[i] = listeners[i].acquiring(kind, path);
			}
			events = new CompositeAttempt(attempts);
		}
		Acquisition acquisition = new Acquisition(kind, path, events);
		this.waiting.add(acquisition);
		return acquisition;
	}

	/** The acquisition does not wait any more (it took the lock, or gave up). */
	void stopWaiting(Acquisition acquisition) {
		this.waiting.remove(acquisition);
	}

	void register(Hold hold) {
		this.holds.add(hold);
		// The session may have expired, or the connection dropped, since the acquisition.
		if (!isCurrent(hold)) {
			lose(hold);
		}
		else if (!this.client.getZookeeperClient().isConnected()) {
			hold.suspended(this.connectionLossPolicy == ConnectionLossPolicy.SUSPENDED);
			if (hold.state() == LockState.LOST) {
				notifyLost(hold);
			}
		}
	}

	void unregister(Hold hold) {
		this.holds.remove(hold);
	}

	@Override
	public List<HeldLock> heldLocks() {
		return this.holds.stream().map((hold) -> {
			stateOf(hold);
			return hold.snapshot();
		}).toList();
	}

	@Override
	public List<WaitingLock> waitingLocks() {
		return this.waiting.stream().map(Acquisition::snapshot).toList();
	}

	/** Number of locks held now, as {@link #heldLocks()} would list them. */
	public int heldCount() {
		return this.holds.size();
	}

	/** Number of acquisitions waiting now, as {@link #waitingLocks()} would list them. */
	public int waitingCount() {
		return this.waiting.size();
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

	/** Number of recipe instances somebody holds or waits for. */
	int recipesInUse() {
		return this.mutexes.inUse() + this.semaphoreMutexes.inUse() + this.readWriteLocks.inUse()
				+ this.semaphores.inUse();
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

	private record CompositeAttempt(LockEventListener.Attempt[] attempts) implements LockEventListener.Attempt {

		@Override
		public void acquired(long fencingToken) {
			for (LockEventListener.Attempt attempt : this.attempts) {
				attempt.acquired(fencingToken);
			}
		}

		@Override
		public void timedOut() {
			for (LockEventListener.Attempt attempt : this.attempts) {
				attempt.timedOut();
			}
		}

		@Override
		public void failed(Throwable error) {
			for (LockEventListener.Attempt attempt : this.attempts) {
				attempt.failed(error);
			}
		}

		@Override
		public void lost() {
			for (LockEventListener.Attempt attempt : this.attempts) {
				attempt.lost();
			}
		}

		@Override
		public void released() {
			for (LockEventListener.Attempt attempt : this.attempts) {
				attempt.released();
			}
		}

	}

}
