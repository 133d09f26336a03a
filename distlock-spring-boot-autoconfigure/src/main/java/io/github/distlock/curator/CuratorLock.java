package io.github.distlock.curator;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockReleaseException;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LockTimeoutException;

/**
 * The acquisition protocol shared by every Curator-backed lock: take the cached recipe,
 * make sure ZooKeeper is connected within the wait time, let Curator wait under a
 * deadline watchdog, and hand out a handle that returns the recipe to the cache when
 * closed.
 *
 * @param <R> the recipe state type
 */
abstract class CuratorLock<R> implements ClusterLock {

	private static final Logger logger = LoggerFactory.getLogger(CuratorLock.class);

	/**
	 * Longest time a release may wait for ZooKeeper before its node is left to Curator's
	 * background deletion.
	 */
	static final Duration RELEASE_BOUND = Duration.ofSeconds(1);

	/** Acquisition of a lock the thread already held. */
	static final Object REENTERED = new Object();

	/** Acquisition of a lock that needs nothing more to be released. */
	static final Object ACQUIRED = new Object();

	private final CuratorLocks locks;

	private final RecipeCache<R> cache;

	private final LockPath path;

	private final LockKind kind;

	private final String nodePath;

	CuratorLock(CuratorLocks locks, RecipeCache<R> cache, LockKind kind, LockPath path) {
		this.locks = locks;
		this.cache = cache;
		this.kind = kind;
		this.path = path;
		this.nodePath = nodePath(kind, path);
	}

	static String nodePath(LockKind kind, LockPath path) {
		return "/" + kind.subtree() + "/" + path.value();
	}

	@Override
	public LockPath path() {
		return this.path;
	}

	@Override
	public LockKind kind() {
		return this.kind;
	}

	/** ZooKeeper path of the lock, relative to the client's namespace. */
	String nodePath() {
		return this.nodePath;
	}

	/** The locks this lock belongs to. */
	final CuratorLocks locks() {
		return this.locks;
	}

	@Override
	public boolean isHeldByCurrentThread() {
		// A thread that holds the lock keeps its recipe cached; no recipe means no holder
		// here.
		R recipe = this.cache.peek(this.nodePath);
		return (recipe != null) && isHeldByCurrentThread(recipe);
	}

	@Override
	public LockHandle acquire(Duration waitTime) {
		long start = System.nanoTime();
		long deadline = deadlineOf(start, waitTime);
		RecipeCache.Entry<R> entry = this.cache.retain(this.nodePath, this::newRecipe);
		LockHandle handle;
		try {
			handle = acquire(entry, waitTime, start, deadline);
		}
		catch (RuntimeException | Error ex) {
			this.cache.release(entry);
			throw ex;
		}
		if (handle == null) {
			this.cache.release(entry);
			throw timeout(waitTime, null);
		}
		LockContext.enter(handle);
		return handle;
	}

	private LockHandle acquire(RecipeCache.Entry<R> entry, Duration waitTime, long start, long deadline) {
		R recipe = entry.recipe();
		Hold reentered = reenter(recipe);
		if (reentered != null) {
			return new Handle(recipe, entry, REENTERED, reentered);
		}
		Acquisition acquisition = this.locks.startAcquisition(this.kind, this.path);
		LockHandle handle;
		try {
			handle = contend(entry, waitTime, start, deadline, acquisition);
		}
		catch (LockTimeoutException ex) {
			this.locks.stopWaiting(acquisition);
			acquisition.timedOut();
			throw ex;
		}
		catch (RuntimeException | Error ex) {
			this.locks.stopWaiting(acquisition);
			acquisition.failed(ex);
			throw ex;
		}
		if (handle == null) {
			this.locks.stopWaiting(acquisition);
			acquisition.timedOut();
		}
		return handle;
	}

	private LockHandle contend(RecipeCache.Entry<R> entry, Duration waitTime, long start, long deadline,
			Acquisition acquisition) {
		if (this.locks.client().getState() != CuratorFrameworkState.STARTED) {
			throw new LockAcquisitionException("Cannot acquire lock '" + this.path + "': the CuratorFramework is "
					+ this.locks.client().getState(), null);
		}
		boolean queued = queuesLocally() && enterLocalQueue(entry, deadline);
		if (queuesLocally() && !queued) {
			return null;
		}
		try {
			LockHandle handle = acquireInZooKeeper(entry, waitTime, start, deadline, acquisition);
			if (handle != null) {
				return handle;
			}
		}
		catch (RuntimeException | Error ex) {
			if (queued) {
				entry.localQueue().release();
			}
			throw ex;
		}
		if (queued) {
			entry.localQueue().release();
		}
		return null;
	}

	private boolean enterLocalQueue(RecipeCache.Entry<R> entry, long deadline) {
		try {
			if (deadline == Long.MAX_VALUE) {
				entry.localQueue().acquire();
				return true;
			}
			return entry.localQueue().tryAcquire(Math.max(deadline - System.nanoTime(), 0), TimeUnit.NANOSECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException("Interrupted while waiting for lock '" + this.path + "'", ex);
		}
	}

	private LockHandle acquireInZooKeeper(RecipeCache.Entry<R> entry, Duration waitTime, long start, long deadline,
			Acquisition acquisition) {
		R recipe = entry.recipe();
		CuratorFramework client = this.locks.client();
		awaitConnection(client, waitTime, deadline);
		DeadlineWatchdog.Watch watch = (deadline != Long.MAX_VALUE) ? this.locks.watchdog().arm(start, deadline) : null;
		Object acquired;
		try {
			acquired = attempt(recipe, (deadline != Long.MAX_VALUE) ? Math.max(deadline - System.nanoTime(), 0) : -1);
		}
		catch (Exception ex) {
			boolean fired = (watch != null) && watch.disarm();
			if (fired) {
				throw timeout(waitTime, ex);
			}
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
				throw new LockAcquisitionException("Interrupted while waiting for lock '" + this.path + "'", ex);
			}
			if (ex instanceof KeeperException.NoAuthException || ex instanceof KeeperException.InvalidACLException) {
				throw accessRefused((KeeperException) ex);
			}
			if (ex instanceof RuntimeException runtime) {
				throw runtime;
			}
			throw new LockAcquisitionException("Acquiring lock '" + this.path + "' failed: "
					+ ex.getClass().getSimpleName() + ": " + ex.getMessage(), ex);
		}
		if (watch != null) {
			watch.disarm();
		}
		if (acquired == null) {
			return null;
		}
		Hold hold;
		try {
			LockNode node = lockNode(recipe, acquired);
			long instance = this.locks.clientInstanceOwning(node.session());
			if (instance < 0) {
				// The thread waited while its session expired: Curator, through the new
				// session,
				// can grant the lock on the node of the dead one, which ZooKeeper deletes
				// as
				// soon as it expires that session, letting the next waiter in.
				releaseBounded(recipe, acquired, Thread.currentThread());
				throw new LockAcquisitionException("Lock '" + this.path
						+ "' was granted on a node of ZooKeeper session 0x" + Long.toHexString(node.session())
						+ ", which expired while waiting; it is not held. Try again", null);
			}
			hold = new Hold(this.kind, this.path, node.czxid(), instance, acquisition);
		}
		catch (LockAcquisitionException ex) {
			throw ex;
		}
		catch (Exception ex) {
			releaseBounded(recipe, acquired, Thread.currentThread());
			throw new LockAcquisitionException(
					"Reading the fencing token of lock '" + this.path + "' failed: " + ex.getMessage(), ex);
		}
		onHeld(recipe, hold);
		// Told before the hold is registered, so that a loss is never reported first.
		this.locks.stopWaiting(acquisition);
		acquisition.acquired(hold.token());
		this.locks.register(hold);
		return new Handle(recipe, entry, acquired, hold);
	}

	private void awaitConnection(CuratorFramework client, Duration waitTime, long deadline) {
		if (client.getZookeeperClient().isConnected()) {
			return;
		}
		boolean connected;
		try {
			if (deadline == Long.MAX_VALUE) {
				client.blockUntilConnected();
				connected = true;
			}
			else {
				long remaining = Math.max(deadline - System.nanoTime(), 0);
				connected = client.blockUntilConnected(
						(int) Math.min(TimeUnit.NANOSECONDS.toMillis(remaining), Integer.MAX_VALUE),
						TimeUnit.MILLISECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException("Interrupted while waiting for lock '" + this.path + "'", ex);
		}
		if (!connected) {
			throw new LockTimeoutException("Lock '" + this.path + "' was not acquired within " + format(waitTime)
					+ ": ZooKeeper (" + connectString(client) + ") is not connected", this.path, waitTime, null);
		}
	}

	/**
	 * A refusal by ZooKeeper's access control is final: retrying with the same identity
	 * cannot succeed, so it fails at once with a message saying where to look.
	 */
	private LockAcquisitionException accessRefused(KeeperException ex) {
		String node = (ex.getPath() != null) ? ex.getPath() : this.nodePath;
		String reason = (ex instanceof KeeperException.InvalidACLException)
				? "it refused the ACL for a new node (creator-only ACLs need an authenticated session)"
				: "the node's ACL does not grant this client's identity access";
		return new LockAcquisitionException("Cannot acquire lock '" + this.path + "': ZooKeeper refused access to "
				+ node + ", " + reason + ". Check distlock.zookeeper.auth.* (the credentials must be those of "
				+ "the identity that created the nodes) and distlock.zookeeper.acl.*", ex);
	}

	private LockTimeoutException timeout(Duration waitTime, Exception cause) {
		CuratorFramework client = this.locks.client();
		String reason = client.getZookeeperClient().isConnected() ? "it is held by another holder"
				: "ZooKeeper (" + connectString(client) + ") did not answer in time";
		return new LockTimeoutException(
				"Lock '" + this.path + "' was not acquired within " + format(waitTime) + ": " + reason, this.path,
				waitTime, cause);
	}

	private static String connectString(CuratorFramework client) {
		return client.getZookeeperClient().getCurrentConnectionString();
	}

	static String format(Duration waitTime) {
		if (waitTime.isZero()) {
			return "a single try";
		}
		return (waitTime.toMillis() < 10_000) ? waitTime.toMillis() + "ms" : waitTime.toSeconds() + "s";
	}

	private static long deadlineOf(long now, Duration waitTime) {
		if (waitTime.isNegative()) {
			return Long.MAX_VALUE;
		}
		long nanos;
		try {
			nanos = waitTime.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
		long deadline = now + nanos;
		return (deadline < now) ? Long.MAX_VALUE : deadline;
	}

	/**
	 * Release an acquisition without waiting long for ZooKeeper. Curator deletes lock
	 * nodes "guaranteed": a delete that fails for want of a connection, or is
	 * interrupted, is retried in the background. So when ZooKeeper is away, the release
	 * is interrupted at once (or after {@link #RELEASE_BOUND} if the connection drops
	 * during it), which frees the recipe for the next acquisition while Curator removes
	 * the node later.
	 * @return whether the node was removed now (rather than left to the background)
	 */
	private boolean releaseBounded(R recipe, Object acquisition, Thread owner) {
		if (acquisition == REENTERED) {
			try {
				release(recipe, acquisition, owner);
				return true;
			}
			catch (Exception ex) {
				throw new LockReleaseException("Releasing lock '" + this.path + "' failed: " + ex, ex);
			}
		}
		boolean wasInterrupted = Thread.currentThread().isInterrupted();
		boolean connected = this.locks.client().getZookeeperClient().isConnected();
		DeadlineWatchdog.Watch watch = null;
		if (!connected) {
			Thread.currentThread().interrupt();
		}
		else if (!wasInterrupted) {
			long now = System.nanoTime();
			watch = this.locks.watchdog().arm(now, now + RELEASE_BOUND.toNanos());
		}
		try {
			release(recipe, acquisition, owner);
			return true;
		}
		catch (InterruptedException | KeeperException.ConnectionLossException
				| KeeperException.SessionExpiredException ex) {
			logger.warn("Lock '{}' released while ZooKeeper is unreachable; its node is removed in the background "
					+ "once the connection returns, or dies with the session", this.path);
			return false;
		}
		catch (Exception ex) {
			if (!connected || (watch != null && watch.disarm())) {
				logger.warn(
						"Lock '{}' released while ZooKeeper is unreachable ({}); its node is removed in the "
								+ "background once the connection returns, or dies with the session",
						this.path, ex.toString());
				return false;
			}
			throw new LockReleaseException("Releasing lock '" + this.path + "' failed: " + ex, ex);
		}
		finally {
			if (watch != null) {
				watch.disarm();
			}
			if (!wasInterrupted) {
				Thread.interrupted();
			}
		}
	}

	/**
	 * Create the recipe state for this lock's path; called while no one else uses the
	 * path.
	 */
	abstract R newRecipe(String nodePath);

	/**
	 * Return the hold of the current thread if it re-enters a lock it holds, counting the
	 * re-entry with the recipe (no ZooKeeper call); refuse at once if it may not
	 * re-enter.
	 * @return the hold, or {@code null} if the thread does not hold the lock
	 */
	abstract Hold reenter(R recipe);

	/**
	 * Let Curator acquire the lock.
	 * @param timeoutNanos how long to wait, or -1 to wait forever
	 * @return what the acquisition needs to be released (such as a lease), or
	 * {@code null} if the lock was not acquired in time
	 */
	abstract Object attempt(R recipe, long timeoutNanos) throws Exception;

	/** Read the node of the acquisition the current thread just made. */
	abstract LockNode lockNode(R recipe, Object acquisition) throws Exception;

	/** Remember a new hold of the current thread, for re-entry. */
	void onHeld(R recipe, Hold hold) {
	}

	/**
	 * Release one acquisition of the lock.
	 * @param acquisition what {@link #attempt} returned, or {@link #REENTERED}
	 * @param owner the thread that acquired it
	 */
	abstract void release(R recipe, Object acquisition, Thread owner) throws Exception;

	abstract boolean isHeldByCurrentThread(R recipe);

	/** Whether a handle may be closed by another thread than the one that acquired it. */
	abstract boolean releasableByOtherThreads();

	/**
	 * Whether the lock is exclusive, so that threads of this client queue for it locally
	 * before one of them competes in ZooKeeper.
	 */
	abstract boolean queuesLocally();

	private final class Handle implements LockHandle {

		private final R recipe;

		private final RecipeCache.Entry<R> entry;

		private final Object acquisition;

		private final Hold hold;

		private final Thread owner = Thread.currentThread();

		private volatile boolean closed;

		Handle(R recipe, RecipeCache.Entry<R> entry, Object acquisition, Hold hold) {
			this.recipe = recipe;
			this.entry = entry;
			this.acquisition = acquisition;
			this.hold = hold;
			hold.addHandle();
		}

		@Override
		public LockPath path() {
			return CuratorLock.this.path;
		}

		@Override
		public LockKind kind() {
			return CuratorLock.this.kind;
		}

		@Override
		public long fencingToken() {
			return this.hold.token();
		}

		@Override
		public Instant acquiredAt() {
			return this.hold.since();
		}

		@Override
		public LockState state() {
			return this.closed ? LockState.RELEASED : CuratorLock.this.locks.stateOf(this.hold);
		}

		@Override
		public synchronized void close() {
			if (this.closed) {
				return;
			}
			if (this.owner != Thread.currentThread() && !releasableByOtherThreads()) {
				throw new LockReleaseException(
						"Lock '" + CuratorLock.this.path + "' was acquired by thread '" + this.owner.getName()
								+ "' and must be released by it, not by '" + Thread.currentThread().getName() + "'",
						null);
			}
			this.closed = true;
			try {
				releaseBounded(this.recipe, this.acquisition, this.owner);
			}
			finally {
				if (this.acquisition != REENTERED && queuesLocally()) {
					this.entry.localQueue().release();
				}
				if (this.hold.removeHandle()) {
					CuratorLock.this.locks.unregister(this.hold);
					this.hold.acquisition().released();
				}
				if (this.owner == Thread.currentThread()) {
					LockContext.exit(this);
				}
				CuratorLock.this.cache.release(this.entry);
			}
		}

		@Override
		public String toString() {
			return "LockHandle[" + CuratorLock.this.kind + " '" + CuratorLock.this.path + "', token "
					+ this.hold.token() + ", " + state() + "]";
		}

	}

}
