package io.github.distlock.curator;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockState;

/**
 * The session of one client, and what follows it: the connection state, the namespace
 * node, the holds (held or in doubt while suspended, lost when the session ends) and the
 * acquisitions in flight (resumed when the connection returns). What must reach ZooKeeper
 * whatever the connection does (releases, deletes of nodes nobody holds, removals of
 * watches nobody needs) it sends through its {@link Requests}, which it tells when the
 * connection returns and when the session ends.
 * <p>
 * A hold is lost when the session that owns its node ends, whether or not Curator
 * reported it yet: Curator replaces its ZooKeeper handle when the session expires, so a
 * node made through an older handle ({@link #clientInstance()}) belongs to a dead
 * session. Curator tells a suspension or a loss on a thread of its own, possibly after a
 * node was made in a new session: what follows the session judges whether the event is
 * about its node's session ({@link Session#isOfLaterSession}), so an event told late ends
 * nothing of the new session.
 */
final class SessionWatch implements Session {

	private static final Logger logger = LoggerFactory.getLogger(SessionWatch.class);

	private final CuratorFramework client;

	private final ConnectionLossPolicy policy;

	private final EngineThreads threads;

	private final Set<Held> holds = ConcurrentHashMap.newKeySet();

	private final Set<Waiting> acquisitions = ConcurrentHashMap.newKeySet();

	// What else follows the session: the participants of leader elections.
	private final Set<SessionBound> bound = ConcurrentHashMap.newKeySet();

	private final Requests requests;

	private final List<Consumer<HeldLock>> lossListeners = new CopyOnWriteArrayList<>();

	private final ConnectionStateListener listener = (client, state) -> connectionStateChanged(state);

	// Whether the client's namespace node is known to exist. Until it is, Curator makes
	// sure of it, waiting for ZooKeeper, on the thread of each request's forPath(): no
	// request is sent before a thread of distlock's own has done it once.
	private volatile boolean namespaceReady;

	private final AtomicBoolean preparingNamespace = new AtomicBoolean();

	// Whether the client was ever connected: a try-once waits for the first connection,
	// but not for a lost one to return.
	private volatile boolean everConnected;

	SessionWatch(CuratorFramework client, ConnectionLossPolicy policy, EngineThreads threads) {
		this.client = client;
		this.policy = policy;
		this.threads = threads;
		this.requests = new Requests(client, threads, this::stopOnceIdle);
		String namespace = client.getNamespace();
		this.namespaceReady = namespace == null || namespace.isEmpty();
	}

	// Guarded by this: whether the listener is registered, and whether the locks were
	// closed (the listener then goes once no hold follows the session).
	private boolean listening;

	// The handle in use when a connection was told last (events are told one at a time).
	private volatile long toldInstance;

	private boolean closing;

	/** Start following the client's connection state. */
	void start() {
		this.toldInstance = clientInstance();
		synchronized (this) {
			this.client.getConnectionStateListenable().addListener(this.listener);
			this.listening = true;
		}
		if (isConnected()) {
			this.everConnected = true;
			prepareNamespace();
		}
	}

	/** Stop following the client's connection state. */
	synchronized void stop() {
		this.client.getConnectionStateListenable().removeListener(this.listener);
		this.listening = false;
	}

	/**
	 * The locks are closed: stop following the connection once no hold follows it and no
	 * release waits for it. A hold still held then keeps following its session
	 * (suspended, lost) until its holder releases it: the application's shutdown does not
	 * make a lock look held after its session is gone. Its release completes as any
	 * other: sent again when the connection returns, completed when the session ends.
	 */
	synchronized void close() {
		this.closing = true;
		stopOnceIdle();
	}

	private synchronized void stopOnceIdle() {
		if (this.closing && this.listening && this.holds.isEmpty() && this.bound.isEmpty()
				&& !this.requests.isReleasing()) {
			stop();
		}
	}

	// Connection state

	private void connectionStateChanged(ConnectionState state) {
		switch (state) {
			case SUSPENDED -> everyBound(SessionBound::suspended);
			case LOST -> {
				// Each judges whether the loss is about its node's session: Curator may
				// tell it after a node was made in a new session.
				everyBound(SessionBound::lost);
				// Their nodes died with the session, unless made in a later one.
				this.requests.lost(this::isOfLaterSession);
			}
			case CONNECTED, RECONNECTED -> {
				// Read now, so maybe newer than the handle connected: a later suspension
				// or loss then ends more, never less.
				this.toldInstance = clientInstance();
				this.everConnected = true;
				prepareNamespace();
				this.holds.forEach(Held::reconnected);
				this.requests.reconnected();
				this.acquisitions.forEach(Waiting::reconnected);
				this.bound.forEach(SessionBound::reconnected);
			}
			default -> {
			}
		}
	}

	/** Tell what follows the session, in order: holds, acquisitions, the rest. */
	private void everyBound(Consumer<SessionBound> event) {
		this.holds.forEach(event);
		this.acquisitions.forEach(event);
		this.bound.forEach(event);
	}

	/**
	 * Whether a suspended connection loses the holds (the policy
	 * {@link ConnectionLossPolicy#SUSPENDED}), rather than leaving them in doubt.
	 */
	@Override
	public boolean suspendedIsLost() {
		return this.policy == ConnectionLossPolicy.SUSPENDED;
	}

	/** Whether the client is connected now. */
	@Override
	public boolean isConnected() {
		return this.client.getZookeeperClient().isConnected();
	}

	/**
	 * Wait for the connection, as Curator's own blocking reads do, for at most the
	 * client's connection timeout: a read right after the application starts finds the
	 * client still connecting.
	 * @throws LockAcquisitionException if the client is not connected by then, or the
	 * thread is interrupted
	 */
	@Override
	public void awaitConnection() {
		if (isConnected()) {
			return;
		}
		int timeout = this.client.getZookeeperClient().getConnectionTimeoutMs();
		try {
			if (this.client.blockUntilConnected(timeout, TimeUnit.MILLISECONDS)) {
				return;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException(
					"Interrupted while waiting for ZooKeeper (" + connectString() + ") to connect", ex);
		}
		throw new LockAcquisitionException(
				"ZooKeeper (" + connectString() + ") is not connected (waited " + timeout + " ms)", null);
	}

	/** Whether the client was connected once, and is not now. */
	@Override
	public boolean isDisconnected() {
		return this.everConnected && !isConnected();
	}

	/** Whether requests may be sent now: connected, and the namespace node exists. */
	@Override
	public boolean isReady() {
		return this.namespaceReady && isConnected();
	}

	/** Curator's index of the ZooKeeper handle (and so of the session) in use now. */
	@Override
	public long clientInstance() {
		return this.client.getZookeeperClient().getInstanceIndex();
	}

	@Override
	public boolean isOfLaterSession(LockNode node) {
		return node.clientInstance() > this.toldInstance;
	}

	/** The servers the client connects to, for messages. */
	@Override
	public String connectString() {
		return this.client.getZookeeperClient().getCurrentConnectionString();
	}

	/** The full ZooKeeper path of a path relative to the client's namespace. */
	@Override
	public String namespaced(String path) {
		String namespace = this.client.getNamespace();
		return (namespace == null || namespace.isEmpty()) ? path : ZKPaths.makePath(namespace, path);
	}

	/**
	 * Let Curator make sure the namespace node exists, on a thread of distlock's own, and
	 * go on with the acquisitions that waited for it; when ZooKeeper refuses (access,
	 * credentials), fail them with its answer instead of letting them wait.
	 */
	@Override
	public void prepareNamespace() {
		if (this.namespaceReady || !this.preparingNamespace.compareAndSet(false, true)) {
			return;
		}
		boolean accepted = this.threads.prepareNamespace(() -> {
			Exception refused = null;
			try {
				this.client.checkExists().forPath("/");
				this.namespaceReady = true;
			}
			catch (Exception ex) {
				if (ex instanceof KeeperException keeper && !Requests.isConnectionProblem(keeper.code())) {
					refused = keeper;
				}
				logger.debug("Namespace of {} not ready yet: {}", connectString(), ex.toString());
			}
			finally {
				this.preparingNamespace.set(false);
			}
			if (this.namespaceReady) {
				this.acquisitions.forEach(Waiting::resume);
			}
			else if (refused != null) {
				for (Waiting acquisition : this.acquisitions) {
					acquisition.failBeforeBegin(refused);
				}
			}
		});
		if (!accepted) {
			this.preparingNamespace.set(false);
		}
	}

	// Acquisitions

	/** Follow an acquisition until it ends: it is resumed when the connection returns. */
	@Override
	public void follow(Waiting acquisition) {
		this.acquisitions.add(acquisition);
	}

	/** Stop following an acquisition that ended. */
	@Override
	public void unfollow(Waiting acquisition) {
		this.acquisitions.remove(acquisition);
	}

	/** The acquisitions in flight. */
	Set<Waiting> acquisitions() {
		return this.acquisitions;
	}

	// Whatever else follows the session

	/**
	 * Tell what else follows the session (a participant of a leader election) what the
	 * connection does, until it is {@linkplain #unbind unbound}.
	 */
	@Override
	public void bind(SessionBound follower) {
		this.bound.add(follower);
		synchronized (this) {
			if (this.closing && !this.listening) {
				this.client.getConnectionStateListenable().addListener(this.listener);
				this.listening = true;
			}
		}
	}

	/** Stop telling a follower what the connection does. */
	@Override
	public void unbind(SessionBound follower) {
		this.bound.remove(follower);
		stopOnceIdle();
	}

	// Holds

	/** Start following a new hold's session. */
	@Override
	public void register(Held hold) {
		this.holds.add(hold);
		synchronized (this) {
			if (this.closing && !this.listening) {
				// Granted as the locks closed, after the last hold left.
				this.client.getConnectionStateListenable().addListener(this.listener);
				this.listening = true;
			}
		}
		// The session may have expired, or the connection dropped, since the grant.
		if (hold.state() != LockState.LOST && !isConnected()) {
			hold.suspended();
		}
	}

	/** The holds followed now. */
	Set<Held> holds() {
		return this.holds;
	}

	/**
	 * Add a listener told once of every held lock that becomes lost, on the loss-report
	 * thread.
	 */
	void addLossListener(Consumer<HeldLock> listener) {
		this.lossListeners.add(listener);
	}

	/** Tell the holder's listeners and the loss listeners that a hold was lost. */
	@Override
	public void reportLoss(Held hold) {
		this.threads.reportLoss(() -> {
			HeldLock lost = hold.snapshot();
			logger.warn("Lost {} '{}' held by '{}' since {}", lost.kind(), lost.path(), lost.holder(),
					lost.acquiredAt());
			AcquisitionEvents events = hold.events();
			if (events != null) {
				events.lost();
			}
			for (Consumer<HeldLock> listener : this.lossListeners) {
				try {
					listener.accept(lost);
				}
				catch (RuntimeException ex) {
					logger.warn("Lock loss listener failed", ex);
				}
			}
		});
	}

	// Requests that must reach ZooKeeper, sent by the requests

	@Override
	public void release(Held hold) {
		this.holds.remove(hold);
		// Followed until completed: the listener stays while the release is not.
		this.requests.release(hold);
		stopOnceIdle();
	}

	/** Tell the given consumer the node of each release ZooKeeper deleted. */
	void onDeleted(Consumer<String> deleted) {
		this.requests.onDeleted(deleted);
	}

	/** Number of releases waiting for the connection to return. */
	int unconfirmedReleases() {
		return this.requests.unconfirmedReleases();
	}

	/** Every other request the engine sends: creates, reads, watches and deletes. */
	Requests requests() {
		return this.requests;
	}

}
