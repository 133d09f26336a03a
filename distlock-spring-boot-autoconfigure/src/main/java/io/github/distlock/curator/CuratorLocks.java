package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.ClusterReadWriteLock;
import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockQueue;
import io.github.distlock.core.LockReleaseException;
import io.github.distlock.core.LockState;
import io.github.distlock.core.Locks;
import io.github.distlock.core.WaitingLock;

/**
 * {@link Locks} on one {@link CuratorFramework} client, which stands for one node of the
 * cluster: its acquisitions compete with each other and with every other client's, also
 * with raw Curator recipes on the same paths (the protocols are node for node Curator's).
 * <p>
 * The engine is event-driven, on Curator's asynchronous API: an {@link Attempt} per
 * acquisition, its {@link QueuePosition}s driven by ZooKeeper's answers and watches, a
 * {@link Hold} per granted node, per-path {@link LocalQueues} for exclusive locks, one
 * {@link DeadlineTimer} thread for deadlines. Curator keeps doing what it does well:
 * connection and session management, retries, protected creates, guaranteed deletes.
 * Waiting costs no thread; nothing blocking and no code of the application runs on a
 * ZooKeeper or Curator thread: asynchronous acquisitions complete on this object's
 * executor, and loss notifications are delivered by a thread of distlock's own.
 * <p>
 * Lock nodes live under the client's namespace, in one subtree per protocol. Nothing is
 * kept per key once a lock is released: lock parents are container nodes, which ZooKeeper
 * reaps once they are empty.
 */
public final class CuratorLocks implements Locks, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(CuratorLocks.class);

	private final CuratorFramework client;

	private final Duration defaultWaitTime;

	private final HolderIdentity identity;

	private final ConnectionLossPolicy connectionLossPolicy;

	private final Executor executor;

	private final @Nullable ThreadPoolExecutor ownExecutor;

	private final DeadlineTimer timer = new DeadlineTimer();

	private final ThreadPoolExecutor notifier;

	// ZooKeeper requests that may wait: Curator's background calls block the calling
	// thread while the connection is away (it checks the connection's timeouts, and may
	// close and reopen its ZooKeeper handle, before it queues the request). The deadline
	// timer, a ZooKeeper thread and a caller's close() hand such requests here.
	private final ThreadPoolExecutor requests;

	// Makes sure of the namespace node: a blocking call of Curator's, kept off every
	// other thread (loss reports included).
	private final ThreadPoolExecutor namespacePreparer;

	private final LocalQueues localQueues = new LocalQueues();

	private final Set<Hold> holds = ConcurrentHashMap.newKeySet();

	private final Set<Attempt> attempts = ConcurrentHashMap.newKeySet();

	// Holds whose delete failed for want of a connection: sent again when it returns.
	private final Set<Hold> unconfirmedReleases = ConcurrentHashMap.newKeySet();

	private final List<Consumer<HeldLock>> lossListeners = new CopyOnWriteArrayList<>();

	private volatile LockEventListener[] eventListeners = {};

	private final ConnectionStateListener connectionListener = (client, state) -> connectionStateChanged(state);

	// Whether the client's namespace node is known to exist. Until it is, Curator makes
	// sure of it, waiting for ZooKeeper, on the thread of each request's forPath(): no
	// request is sent before a thread of distlock's own has done it once.
	private volatile boolean namespaceReady;

	private final AtomicBoolean preparingNamespace = new AtomicBoolean();

	// Whether the client was ever connected: a try-once waits for the first connection,
	// but not for a lost one to return.
	private volatile boolean everConnected;

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
		this(client, defaultWaitTime, applicationName, connectionLossPolicy, null);
	}

	/**
	 * Create locks on the given client.
	 * @param client a started client; its namespace is the lock root
	 * @param defaultWaitTime wait time for callers that do not give one
	 * @param applicationName name written into lock nodes to tell who holds them
	 * @param connectionLossPolicy when a held lock counts as lost
	 * @param executor where asynchronous acquisitions complete, and so where the code
	 * chained to them runs; {@code null} for threads of distlock's own (created as
	 * needed, so that chained code that blocks holds up no other completion; not the
	 * common fork-join pool, which has a single worker on a two-core machine)
	 */
	public CuratorLocks(CuratorFramework client, Duration defaultWaitTime, String applicationName,
			ConnectionLossPolicy connectionLossPolicy, @Nullable Executor executor) {
		this.client = client;
		this.defaultWaitTime = defaultWaitTime;
		this.identity = new HolderIdentity(applicationName);
		this.connectionLossPolicy = connectionLossPolicy;
		this.ownExecutor = (executor != null) ? null : completionThreads();
		this.executor = (executor != null) ? executor : this.ownExecutor;
		this.notifier = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
				daemonThreads("distlock-events"));
		this.notifier.allowCoreThreadTimeOut(true);
		this.requests = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
				daemonThreads("distlock-requests"));
		this.requests.allowCoreThreadTimeOut(true);
		this.namespacePreparer = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
				daemonThreads("distlock-namespace"));
		this.namespacePreparer.allowCoreThreadTimeOut(true);
		String namespace = client.getNamespace();
		this.namespaceReady = namespace == null || namespace.isEmpty();
		client.getConnectionStateListenable().addListener(this.connectionListener);
		if (client.getZookeeperClient().isConnected()) {
			this.everConnected = true;
			prepareNamespace();
		}
	}

	/**
	 * Let Curator make sure the namespace node exists, on a thread of distlock's own, and
	 * go on with the acquisitions that waited for it; when ZooKeeper refuses (access,
	 * credentials), fail them with its answer instead of letting them wait.
	 */
	void prepareNamespace() {
		if (this.namespaceReady || !this.preparingNamespace.compareAndSet(false, true)) {
			return;
		}
		try {
			this.namespacePreparer.execute(() -> {
				Exception refused = null;
				try {
					this.client.checkExists().forPath("/");
					this.namespaceReady = true;
				}
				catch (Exception ex) {
					if (ex instanceof KeeperException keeper && !isConnectionProblem(keeper.code())) {
						refused = keeper;
					}
					logger.debug("Namespace of {} not ready yet: {}", connectString(), ex.toString());
				}
				finally {
					this.preparingNamespace.set(false);
				}
				if (this.namespaceReady) {
					this.attempts.forEach(Attempt::resume);
				}
				else if (refused != null) {
					for (Attempt attempt : this.attempts) {
						attempt.failBeforeBegin(refused);
					}
				}
			});
		}
		catch (RejectedExecutionException ex) {
			this.preparingNamespace.set(false);
		}
	}

	static boolean isConnectionProblem(KeeperException.Code code) {
		return code == KeeperException.Code.CONNECTIONLOSS || code == KeeperException.Code.SESSIONEXPIRED
				|| code == KeeperException.Code.OPERATIONTIMEOUT || code == KeeperException.Code.SESSIONMOVED;
	}

	private static ThreadPoolExecutor completionThreads() {
		int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
		ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>(), daemonThreads("distlock-async-"));
		pool.allowCoreThreadTimeOut(true);
		return pool;
	}

	private static ThreadFactory daemonThreads(String name) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, name.endsWith("-") ? name + count.incrementAndGet() : name);
			thread.setDaemon(true);
			return thread;
		};
	}

	// Connection state

	private void connectionStateChanged(ConnectionState state) {
		switch (state) {
			case SUSPENDED -> {
				boolean suspendedIsLost = this.connectionLossPolicy == ConnectionLossPolicy.SUSPENDED;
				for (Hold hold : this.holds) {
					if (hold.suspended(suspendedIsLost)) {
						notifyLost(hold);
					}
				}
				this.attempts.forEach(Attempt::suspended);
			}
			case LOST -> {
				this.holds.forEach(this::lose);
				// Their nodes died with the session.
				for (Hold hold : this.unconfirmedReleases) {
					this.unconfirmedReleases.remove(hold);
					hold.released().complete(null);
				}
			}
			case CONNECTED, RECONNECTED -> {
				this.everConnected = true;
				prepareNamespace();
				for (Hold hold : this.holds) {
					// Curator reports no second LOST while it is still in the lost state,
					// so
					// a session that expired again meanwhile shows only here.
					if (!isCurrent(hold)) {
						lose(hold);
					}
					else {
						hold.reconnected();
					}
				}
				for (Hold hold : this.unconfirmedReleases) {
					this.unconfirmedReleases.remove(hold);
					sendRelease(hold);
				}
				this.attempts.forEach(Attempt::resume);
			}
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
		LockState state = hold.currentState();
		if ((state == LockState.HELD || state == LockState.IN_DOUBT) && !isCurrent(hold)) {
			lose(hold);
			return LockState.LOST;
		}
		return state;
	}

	private boolean isCurrent(Hold hold) {
		return hold.node().clientInstance() == clientInstance();
	}

	/** Curator's index of the ZooKeeper handle (and so of the session) in use now. */
	long clientInstance() {
		return this.client.getZookeeperClient().getInstanceIndex();
	}

	boolean isConnected() {
		return this.client.getZookeeperClient().isConnected();
	}

	/** Whether the client was connected once, and is not now. */
	boolean isDisconnected() {
		return this.everConnected && !isConnected();
	}

	/** Whether requests may be sent now: connected, and the namespace node exists. */
	boolean isReady() {
		return this.namespaceReady && isConnected();
	}

	/** The full ZooKeeper path of a path relative to the client's namespace. */
	String namespaced(String path) {
		String namespace = this.client.getNamespace();
		return (namespace == null || namespace.isEmpty()) ? path : ZKPaths.makePath(namespace, path);
	}

	String connectString() {
		return this.client.getZookeeperClient().getCurrentConnectionString();
	}

	// Loss reports go through one thread of distlock's own, in order: a listener that
	// blocks delays other loss reports, never a grant.
	private void notifyLost(Hold hold) {
		try {
			this.notifier.execute(() -> reportLost(hold));
		}
		catch (RejectedExecutionException ex) {
			reportLost(hold);
		}
	}

	private void reportLost(Hold hold) {
		HeldLock lost = hold.snapshot();
		logger.warn("Lost {} '{}' held by '{}' since {}", lost.kind(), lost.path(), lost.thread(), lost.since());
		hold.events().lost();
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
	 * Add a listener told once of every held lock that becomes lost.
	 * @param listener the listener; called on distlock's event thread, one loss after the
	 * other
	 */
	public void addLossListener(Consumer<HeldLock> listener) {
		this.lossListeners.add(listener);
	}

	/**
	 * Add a listener told of every acquisition that contends for its lock, its outcome
	 * and, once held, its release or loss (for metrics and tracing).
	 * @param listener the listener, called as {@link LockEventListener} says
	 */
	public synchronized void addEventListener(LockEventListener listener) {
		LockEventListener[] current = this.eventListeners;
		LockEventListener[] added = Arrays.copyOf(current, current.length + 1);
		added[current.length] = listener;
		this.eventListeners = added;
	}

	// Engine services

	/** Start following one acquisition for the event listeners. */
	Events events(LockKind kind, LockPath path) {
		return Events.start(this.eventListeners, kind, path);
	}

	/** Run a completion on the executor; never on the calling ZooKeeper thread. */
	void execute(Runnable task) {
		try {
			this.executor.execute(task);
		}
		catch (RejectedExecutionException ex) {
			ForkJoinPool.commonPool().execute(task);
		}
	}

	/**
	 * Run engine work that may send ZooKeeper requests on distlock's request thread, in
	 * order, so that the thread that asks (the deadline timer, a ZooKeeper thread, a
	 * caller) never waits on Curator. Runs it here once the locks are closed.
	 */
	void request(Runnable work) {
		try {
			this.requests.execute(work);
		}
		catch (RejectedExecutionException ex) {
			work.run();
		}
	}

	/** Run engine work that may send requests on the request thread, after a pause. */
	void requestAfter(Duration pause, Runnable work) {
		this.timer.schedule(System.nanoTime() + pause.toNanos(), () -> request(work));
	}

	/**
	 * Send a request from this thread while connected (Curator queues it at once), else
	 * from the request thread: without a connection Curator would block this one until it
	 * gives up on it.
	 */
	private void send(Runnable request) {
		if (isConnected()) {
			request.run();
		}
		else {
			request(request);
		}
	}

	/** Start following a new hold's session. */
	void register(Hold hold) {
		this.holds.add(hold);
		// The session may have expired, or the connection dropped, since the grant.
		if (!isCurrent(hold)) {
			lose(hold);
		}
		else if (!isConnected() && hold.suspended(this.connectionLossPolicy == ConnectionLossPolicy.SUSPENDED)) {
			notifyLost(hold);
		}
	}

	/**
	 * Release a hold: send the delete of its node, and complete its confirmation when
	 * ZooKeeper answers. Without a connection the delete is sent again when the
	 * connection returns (Curator's guaranteed delete retries it too), unless the session
	 * ends first, which deletes the node.
	 */
	void release(Hold hold) {
		this.holds.remove(hold);
		send(() -> sendRelease(hold));
	}

	private void sendRelease(Hold hold) {
		String path = hold.node().path();
		try {
			this.client.delete().guaranteed().inBackground((client, event) -> {
				KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
				switch (code) {
					case OK, NONODE, SESSIONEXPIRED -> hold.released().complete(null);
					case CONNECTIONLOSS, OPERATIONTIMEOUT -> {
						this.unconfirmedReleases.add(hold);
						if (isConnected()) {
							// The connection returned before this answer came.
							this.unconfirmedReleases.remove(hold);
							sendRelease(hold);
						}
					}
					default -> hold.released()
						.completeExceptionally(new LockReleaseException("Releasing lock '" + hold.path()
								+ "' failed: ZooKeeper refused to delete " + path + ": " + code, null));
				}
			}).forPath(path);
		}
		catch (Exception ex) {
			hold.released()
				.completeExceptionally(new LockReleaseException(
						"Releasing lock '" + hold.path() + "' failed: " + ex.getMessage(), ex));
		}
	}

	/**
	 * Delete a node nobody holds (an abandoned attempt's, a semaphore's guard) in the
	 * background, guaranteed: retried until it is gone or its session ends.
	 */
	void deleteInBackground(String path) {
		send(() -> sendDelete(path));
	}

	private void sendDelete(String path) {
		try {
			this.client.delete().guaranteed().inBackground().forPath(path);
		}
		catch (Exception ex) {
			logger.warn("Could not delete lock node {}; it is deleted with its session", path, ex);
		}
	}

	HolderIdentity identity() {
		return this.identity;
	}

	DeadlineTimer timer() {
		return this.timer;
	}

	LocalQueues localQueues() {
		return this.localQueues;
	}

	Set<Attempt> attempts() {
		return this.attempts;
	}

	// Locks

	@Override
	public ClusterLock mutex(LockPath path) {
		return new CuratorLock(this, LockKind.MUTEX, path, 1);
	}

	@Override
	public ClusterLock nonReentrantMutex(LockPath path) {
		return new CuratorLock(this, LockKind.NON_REENTRANT_MUTEX, path, 1);
	}

	@Override
	public ClusterReadWriteLock readWrite(LockPath path) {
		CuratorLock read = new CuratorLock(this, LockKind.READ, path, 1);
		CuratorLock write = new CuratorLock(this, LockKind.WRITE, path, 1);
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
		return new CuratorLock(this, LockKind.SEMAPHORE, path, permits);
	}

	@Override
	public List<HeldLock> heldLocks() {
		return this.holds.stream().map(Hold::snapshot).toList();
	}

	@Override
	public List<WaitingLock> waitingLocks() {
		return this.attempts.stream().map(Attempt::snapshot).toList();
	}

	@Override
	public Duration defaultWaitTime() {
		return this.defaultWaitTime;
	}

	/** Number of locks held now, as {@link #heldLocks()} would list them. */
	public int heldCount() {
		return this.holds.size();
	}

	/** Number of acquisitions waiting now, as {@link #waitingLocks()} would list them. */
	public int waitingCount() {
		return this.attempts.size();
	}

	/** When a held lock counts as lost. */
	public ConnectionLossPolicy connectionLossPolicy() {
		return this.connectionLossPolicy;
	}

	/** The client these locks live on. */
	public CuratorFramework client() {
		return this.client;
	}

	/**
	 * Number of things kept for locks that nobody holds or waits for: local queue
	 * entries, armed deadlines, unconfirmed releases (for tests of what is left behind).
	 */
	int leftovers() {
		return this.localQueues.size() + this.timer.pending() + this.unconfirmedReleases.size();
	}

	// Inspection: the protocols decide who holds, as for our own nodes.

	@Override
	public List<LockQueue> inspect(LockPath path) {
		if (!isConnected()) {
			throw new LockAcquisitionException("ZooKeeper (" + connectString() + ") is not connected", null);
		}
		try {
			List<LockQueue> queues = new ArrayList<>(3);
			String mutex = CuratorLock.queuePath(LockKind.MUTEX, path);
			addQueue(queues, "mutex", mutex, exclusiveQueue(mutex));
			String readWrite = CuratorLock.queuePath(LockKind.READ, path);
			addQueue(queues, "read_write", readWrite, readWriteQueue(readWrite));
			String semaphore = CuratorLock.queuePath(LockKind.SEMAPHORE, path);
			addQueue(queues, "semaphore", semaphore, semaphoreQueue(semaphore));
			return queues;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException("Interrupted while reading the nodes of lock '" + path + "'", ex);
		}
		catch (Exception ex) {
			throw new LockAcquisitionException("Reading the nodes of lock '" + path + "' failed: " + ex, ex);
		}
	}

	private static void addQueue(List<LockQueue> queues, String kind, String node, List<LockParticipant> nodes) {
		if (!nodes.isEmpty()) {
			queues.add(new LockQueue(kind, node, nodes));
		}
	}

	private List<LockParticipant> exclusiveQueue(String queuePath) throws Exception {
		List<String> sorted = QueueDriver.sorted(children(queuePath),
				org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver::standardFixForSorting,
				QueueDriver.LOCK_NAME);
		List<LockParticipant> participants = new ArrayList<>(sorted.size());
		for (String child : sorted) {
			participant(participants, queuePath, child, participants.isEmpty(), null);
		}
		return participants;
	}

	private List<LockParticipant> readWriteQueue(String queuePath) throws Exception {
		List<String> sorted = QueueDriver.sorted(children(queuePath),
				(child, name) -> org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver
					.standardFixForSorting(org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver
						.standardFixForSorting(child, QueueDriver.READ_NAME), QueueDriver.WRITE_NAME),
				QueueDriver.READ_NAME, QueueDriver.WRITE_NAME);
		List<LockParticipant> participants = new ArrayList<>(sorted.size());
		boolean writerSeen = false;
		for (String child : sorted) {
			boolean write = child.contains(QueueDriver.WRITE_NAME);
			// A writer holds when it is first; a reader while no writer is ahead of it.
			boolean holder = write ? participants.isEmpty() : !writerSeen;
			writerSeen |= write;
			participant(participants, queuePath, child, holder, write ? "write" : "read");
		}
		return participants;
	}

	private List<LockParticipant> semaphoreQueue(String semaphorePath) throws Exception {
		int permits = Integer.MAX_VALUE;
		try {
			byte[] data = this.client.getData().forPath(semaphorePath);
			permits = Integer.parseInt(new String(data, StandardCharsets.UTF_8));
		}
		catch (KeeperException.NoNodeException | NumberFormatException ex) {
			// Not written by distlock: every lease counts as held.
		}
		String leases = ZKPaths.makePath(semaphorePath, SemaphoreAttempt.LEASES);
		List<String> sortedLeases = QueueDriver.sorted(children(leases),
				org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver::standardFixForSorting,
				QueueDriver.LEASE_NAME);
		List<LockParticipant> participants = new ArrayList<>();
		for (String child : sortedLeases) {
			// While there are more leases than permits, the newest waits (with the
			// guard).
			participant(participants, leases, child, participants.size() < permits,
					(participants.size() < permits) ? "lease" : "waiting");
		}
		String guard = ZKPaths.makePath(semaphorePath, SemaphoreAttempt.GUARD);
		for (String child : QueueDriver.sorted(children(guard),
				org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver::standardFixForSorting,
				QueueDriver.LOCK_NAME)) {
			participant(participants, guard, child, false, "waiting");
		}
		return participants;
	}

	private List<String> children(String path) throws Exception {
		try {
			return this.client.getChildren().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

	private void participant(List<LockParticipant> participants, String parent, String child, boolean holder,
			@Nullable String side) throws Exception {
		Stat stat = new Stat();
		byte[] data;
		try {
			data = this.client.getData().storingStatIn(stat).forPath(ZKPaths.makePath(parent, child));
		}
		catch (KeeperException.NoNodeException ex) {
			return;
		}
		participants
			.add(new LockParticipant(child, sequence(child), stat.getCzxid(), Instant.ofEpochMilli(stat.getCtime()),
					holder, side, stat.getEphemeralOwner(), (data != null) ? data : new byte[0]));
	}

	/** The sequence number ZooKeeper appended to a sequential node's name. */
	static long sequence(String name) {
		int start = name.length();
		while (start > 0 && Character.isDigit(name.charAt(start - 1))) {
			start--;
		}
		if (start == name.length() || name.length() - start > 18) {
			return Long.MAX_VALUE;
		}
		return Long.parseLong(name.substring(start));
	}

	/**
	 * Stop the deadline timer and fail the acquisitions in flight. Locks still held stay
	 * held until released or until the client's session ends; the client itself is not
	 * closed.
	 */
	@Override
	public void close() {
		this.client.getConnectionStateListenable().removeListener(this.connectionListener);
		for (Attempt attempt : this.attempts) {
			attempt.fail(new LockAcquisitionException(
					"The locks were closed while waiting for lock '" + attempt.path() + "'", null));
		}
		this.timer.close();
		this.notifier.shutdown();
		this.requests.shutdown();
		this.namespacePreparer.shutdownNow();
		if (this.ownExecutor != null) {
			this.ownExecutor.shutdown();
		}
	}

}
