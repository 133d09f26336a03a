package io.github.distlock.curator;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.ClusterReadWriteLock;
import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockAdmin;
import io.github.distlock.core.LockQueue;
import io.github.distlock.core.Locks;
import io.github.distlock.core.WaitingAcquisition;
import io.github.distlock.core.spi.FenceStore;

/**
 * {@link Locks} on one {@link CuratorFramework} client, which stands for one node of the
 * cluster: its acquisitions compete with each other and with every other client's, also
 * with raw Curator recipes on the same paths (the protocols are node for node Curator's).
 * <p>
 * The engine is event-driven, on Curator's asynchronous API: an {@link Acquisition} per
 * acquisition, its {@link QueuePosition}s driven by ZooKeeper's answers and watches, a
 * {@link Hold} per granted node. This class is the application's side of it and puts its
 * parts together, each with one job: the {@linkplain EngineThreads threads} work runs on,
 * the {@linkplain SessionWatch session} and what follows it (holds, acquisitions,
 * releases), per-path {@linkplain LocalQueues local queues} for exclusive locks, and the
 * {@linkplain QueueInspector inspection} of a path's queues. Acquisitions, positions and
 * holds reach them through the {@link Engine} interface only. Curator keeps doing what it
 * does well: connection and session management, retries, protected creates, guaranteed
 * deletes. Waiting costs no thread; nothing blocking and no code of the application runs
 * on a ZooKeeper or Curator thread.
 * <p>
 * Lock nodes live under the client's namespace, in one subtree per protocol. Nothing is
 * kept per key once a lock is released: lock parents are container nodes, which ZooKeeper
 * reaps once they are empty.
 */
public final class CuratorLocks implements Locks, AutoCloseable {

	private final CuratorFramework client;

	private final Duration defaultWaitTime;

	private final ConnectionLossPolicy connectionLossPolicy;

	private final EngineThreads threads;

	private final SessionWatch session;

	private final Parts engine;

	private final QueueInspector inspector;

	private final ForcedReleases forcedReleases;

	private final List<FenceStore> fenceStores = new CopyOnWriteArrayList<>();

	/**
	 * Start building locks on the given client.
	 * @param client a started client; its namespace is the lock root
	 * @return the builder
	 */
	public static CuratorLocksBuilder builder(CuratorFramework client) {
		return new CuratorLocksBuilder(client);
	}

	static CuratorLocks create(CuratorFramework client, Duration defaultWaitTime, String applicationName,
			ConnectionLossPolicy connectionLossPolicy, @Nullable Executor executor,
			AccessDeniedAdvice accessDeniedAdvice) {
		return new CuratorLocks(client, defaultWaitTime, applicationName, connectionLossPolicy, executor,
				accessDeniedAdvice);
	}

	/**
	 * Create locks on the given client.
	 * @param client a started client; its namespace is the lock root
	 * @param defaultWaitTime wait time for callers that do not give one
	 * @deprecated use {@link #builder(CuratorFramework)}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public CuratorLocks(CuratorFramework client, Duration defaultWaitTime) {
		this(client, defaultWaitTime, "application", ConnectionLossPolicy.SUSPENDED, null, AccessDeniedAdvice.DEFAULT);
	}

	/**
	 * Create locks on the given client, as the builder does with these values.
	 * @deprecated use {@link #builder(CuratorFramework)}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public CuratorLocks(CuratorFramework client, Duration defaultWaitTime, String applicationName) {
		this(client, defaultWaitTime, applicationName, ConnectionLossPolicy.SUSPENDED, null,
				AccessDeniedAdvice.DEFAULT);
	}

	/**
	 * Create locks on the given client, as the builder does with these values.
	 * @deprecated use {@link #builder(CuratorFramework)}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public CuratorLocks(CuratorFramework client, Duration defaultWaitTime, String applicationName,
			ConnectionLossPolicy connectionLossPolicy) {
		this(client, defaultWaitTime, applicationName, connectionLossPolicy, null, AccessDeniedAdvice.DEFAULT);
	}

	/**
	 * Create locks on the given client, as the builder does with these values.
	 * @deprecated use {@link #builder(CuratorFramework)} and
	 * {@link CuratorLocksBuilder#completionExecutor(Executor)}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public CuratorLocks(CuratorFramework client, Duration defaultWaitTime, String applicationName,
			ConnectionLossPolicy connectionLossPolicy, @Nullable Executor executor) {
		this(client, defaultWaitTime, applicationName, connectionLossPolicy, executor, AccessDeniedAdvice.DEFAULT);
	}

	/**
	 * Create locks on the given client, as the builder does with these values (the
	 * builder's {@code accessDeniedAdvice} is what a refused acquisition advises
	 * checking).
	 * @deprecated use {@link #builder(CuratorFramework)}
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public CuratorLocks(CuratorFramework client, Duration defaultWaitTime, String applicationName,
			ConnectionLossPolicy connectionLossPolicy, @Nullable Executor executor,
			AccessDeniedAdvice accessDeniedAdvice) {
		// The one that builds: the builder and the other constructors call it.
		this.client = client;
		this.defaultWaitTime = defaultWaitTime;
		this.connectionLossPolicy = connectionLossPolicy;
		this.threads = new EngineThreads(executor);
		this.session = new SessionWatch(client, connectionLossPolicy, this.threads);
		LoneQueues loneQueues = new LoneQueues(this.session, this.session.requests(), this.threads);
		this.session.onDeleted(loneQueues::deleted);
		this.engine = new Parts(client, new HolderIdentity(applicationName), this.threads, this.session,
				new LocalQueues(), loneQueues, accessDeniedAdvice);
		this.inspector = new QueueInspector(client);
		this.session.start();
		this.forcedReleases = new ForcedReleases(client, this.session, this.session.requests(), this.session::holds);
		this.forcedReleases.start();
	}

	// Locks

	@Override
	public ClusterLock mutex(LockPath path) {
		return new CuratorLock(this, this.engine, LockKind.MUTEX, path, 1, true);
	}

	@Override
	public ClusterLock nonReentrantMutex(LockPath path) {
		return new CuratorLock(this, this.engine, LockKind.MUTEX, path, 1, false);
	}

	@Override
	public ClusterReadWriteLock readWrite(LockPath path) {
		CuratorLock read = new CuratorLock(this, this.engine, LockKind.READ, path, 1, true);
		CuratorLock write = new CuratorLock(this, this.engine, LockKind.WRITE, path, 1, true);
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
		return new CuratorLock(this, this.engine, LockKind.SEMAPHORE, path, permits, false);
	}

	@Override
	public List<HeldLock> heldLocks() {
		return this.session.holds().stream().map(Session.Held::snapshot).toList();
	}

	@Override
	public List<WaitingAcquisition> waitingAcquisitions() {
		return this.session.acquisitions().stream().map(Session.Waiting::snapshot).toList();
	}

	@Override
	public Duration defaultWaitTime() {
		return this.defaultWaitTime;
	}

	@Override
	public Executor completionExecutor() {
		return this.threads::complete;
	}

	@Override
	public int heldCount() {
		return this.session.holds().size();
	}

	@Override
	public int waitingCount() {
		return this.session.acquisitions().size();
	}

	/** When a held lock counts as lost. */
	public ConnectionLossPolicy connectionLossPolicy() {
		return this.connectionLossPolicy;
	}

	/** The client these locks live on. */
	public CuratorFramework client() {
		return this.client;
	}

	/** Loss listeners are called on distlock's event thread. */
	@Override
	public void addLossListener(Consumer<HeldLock> listener) {
		this.session.addLossListener(listener);
	}

	@Override
	public void addEventListener(LockEventListener listener) {
		this.engine.addEventListener(listener);
	}

	@Override
	public LockAdmin admin() {
		return new CuratorLockAdmin(this.inspector, this.session, this.engine.drain,
				new HolderReleases(this.inspector, this.session, this.client, this.fenceStores),
				new JobRecords(this.client));
	}

	/**
	 * Register a store whose fence a forced release ({@link LockAdmin#forceRelease})
	 * advances past the removed holder's token before it deletes the node.
	 * @param store the fence store
	 */
	public void addFenceStore(FenceStore store) {
		this.fenceStores.add(store);
	}

	@Override
	public List<LockQueue> inspect(LockPath path) {
		this.session.awaitConnection();
		try {
			return this.inspector.inspect(path);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException("Interrupted while reading the nodes of lock '" + path + "'", ex);
		}
		catch (Exception ex) {
			throw new LockAcquisitionException("Reading the nodes of lock '" + path + "' failed: " + ex, ex);
		}
	}

	/**
	 * End every acquisition in flight at once with a {@link LockAcquisitionException}
	 * saying the locks were closed, refuse later ones the same way, and end the engine's
	 * threads. Locks still held stay held until released or until the client's session
	 * ends, and keep following the connection until then (suspended, lost, by the
	 * connection-loss policy); the client itself is not closed.
	 */
	@Override
	public void close() {
		this.engine.closed = true;
		this.forcedReleases.close();
		this.session.close();
		for (Session.Waiting acquisition : this.session.acquisitions()) {
			acquisition.fail(acquisition.closed());
		}
		this.engine.loneQueues.close();
		this.threads.close();
	}

	// For tests of this package

	/** Stop following connection-state events, as if Curator sent none. */
	void ignoreConnectionStateEvents() {
		this.session.stop();
	}

	/** The engine's parts, for the leader election on the same client. */
	Engine engine() {
		return this.engine;
	}

	/** The engine's threads. */
	EngineThreads threads() {
		return this.threads;
	}

	/** This client's mutex queues known to hold its node alone. */
	LoneQueues loneQueues() {
		return this.engine.loneQueues;
	}

	/** This client's local queues. */
	LocalQueues localQueues() {
		return this.engine.localQueues;
	}

	/** The acquisitions in flight. */
	List<Acquisition> acquisitions() {
		return this.session.acquisitions().stream().map(Acquisition.class::cast).toList();
	}

	/** Curator's index of the ZooKeeper handle (and so of the session) in use now. */
	long clientInstance() {
		return this.session.clientInstance();
	}

	/**
	 * Number of things kept for locks that nobody holds or waits for: local queue
	 * entries, armed deadlines, unconfirmed releases (for tests of what is left behind).
	 * The mutex queues acquired in the last seconds ({@link LoneQueues}) and their sweep
	 * are not counted: they end by themselves once not acquired for
	 * {@link LoneQueues#IDLE}.
	 */
	int leftovers() {
		return this.engine.localQueues.size()
				+ this.threads.timer().pendingBesides(this.engine.loneQueues.scheduledSweep())
				+ this.session.unconfirmedReleases();
	}

	/** The engine's parts, as acquisitions, positions and holds reach them. */
	private static final class Parts implements Engine {

		private final CuratorFramework client;

		private final HolderIdentity identity;

		private final EngineThreads threads;

		private final Session session;

		private final Requests requests;

		private final LocalQueues localQueues;

		private final LoneQueues loneQueues;

		private final AccessDeniedAdvice accessDeniedAdvice;

		private final Drain drain = new Drain();

		private volatile LockEventListener[] eventListeners = {};

		private volatile boolean closed;

		Parts(CuratorFramework client, HolderIdentity identity, EngineThreads threads, SessionWatch session,
				LocalQueues localQueues, LoneQueues loneQueues, AccessDeniedAdvice accessDeniedAdvice) {
			this.client = client;
			this.identity = identity;
			this.threads = threads;
			this.session = session;
			this.requests = session.requests();
			this.localQueues = localQueues;
			this.loneQueues = loneQueues;
			this.accessDeniedAdvice = accessDeniedAdvice;
		}

		@Override
		public CuratorFramework client() {
			return this.client;
		}

		@Override
		public Identity identity() {
			return this.identity;
		}

		@Override
		public Threads threads() {
			return this.threads;
		}

		@Override
		public Session session() {
			return this.session;
		}

		@Override
		public Requests requests() {
			return this.requests;
		}

		@Override
		public LocalTurns localQueues() {
			return this.localQueues;
		}

		@Override
		public LoneGrants loneQueues() {
			return this.loneQueues;
		}

		@Override
		public @Nullable AcquisitionEvents events(LockKind kind, LockPath path) {
			// Without listeners nothing is told: the call does not enter Events.
			LockEventListener[] listeners = this.eventListeners;
			return (listeners.length == 0) ? null : Events.start(listeners, kind, path);
		}

		@Override
		public boolean isClosed() {
			return this.closed;
		}

		@Override
		public Drain drain() {
			return this.drain;
		}

		@Override
		public AccessDeniedAdvice accessDeniedAdvice() {
			return this.accessDeniedAdvice;
		}

		synchronized void addEventListener(LockEventListener listener) {
			LockEventListener[] current = this.eventListeners;
			LockEventListener[] added = Arrays.copyOf(current, current.length + 1);
			added[current.length] = listener;
			this.eventListeners = added;
		}

	}

}
