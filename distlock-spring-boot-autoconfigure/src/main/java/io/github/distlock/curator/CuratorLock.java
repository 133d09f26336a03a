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
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockReleaseException;
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

	@Override
	public boolean isHeldByCurrentThread() {
		RecipeCache.Entry<R> entry = this.cache.retain(this.nodePath);
		try {
			return isHeldByCurrentThread(entry.recipe());
		}
		finally {
			this.cache.release(entry);
		}
	}

	@Override
	public LockHandle acquire(Duration waitTime) {
		long deadline = deadlineOf(waitTime);
		RecipeCache.Entry<R> entry = this.cache.retain(this.nodePath);
		try {
			LockHandle handle = acquire(entry, waitTime, deadline);
			if (handle != null) {
				return handle;
			}
		}
		catch (RuntimeException | Error ex) {
			this.cache.release(entry);
			throw ex;
		}
		this.cache.release(entry);
		throw timeout(waitTime, null);
	}

	private LockHandle acquire(RecipeCache.Entry<R> entry, Duration waitTime, long deadline) {
		R recipe = entry.recipe();
		LockHandle reentered = reenter(recipe, entry);
		if (reentered != null) {
			return reentered;
		}
		CuratorFramework client = this.locks.client();
		if (client.getState() != CuratorFrameworkState.STARTED) {
			throw new LockAcquisitionException(
					"Cannot acquire lock '" + this.path + "': the CuratorFramework is " + client.getState(), null);
		}
		awaitConnection(client, waitTime, deadline);
		DeadlineWatchdog.Watch watch = (deadline != Long.MAX_VALUE) ? this.locks.watchdog().arm(deadline) : null;
		boolean acquired;
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
			if (ex instanceof RuntimeException runtime && !(ex instanceof IllegalMonitorStateException)) {
				throw runtime;
			}
			throw new LockAcquisitionException("Acquiring lock '" + this.path + "' failed: "
					+ ex.getClass().getSimpleName() + ": " + ex.getMessage(), ex);
		}
		if (watch != null) {
			watch.disarm();
		}
		if (!acquired) {
			return null;
		}
		try {
			return newHandle(recipe, entry, firstHold(recipe));
		}
		catch (Exception ex) {
			releaseQuietly(recipe);
			throw new LockAcquisitionException("Reading the fencing token of lock '" + this.path + "' failed", ex);
		}
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

	private static long deadlineOf(Duration waitTime) {
		if (waitTime.isNegative()) {
			return Long.MAX_VALUE;
		}
		long now = System.nanoTime();
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

	private LockHandle newHandle(R recipe, RecipeCache.Entry<R> entry, Hold hold) {
		return new Handle(recipe, entry, hold);
	}

	/**
	 * Hand out a handle without asking ZooKeeper if the current thread re-enters a lock
	 * it holds; refuse at once if the lock is not reentrant.
	 * @return the handle, or {@code null} if the thread does not hold the lock
	 */
	abstract LockHandle reenter(R recipe, RecipeCache.Entry<R> entry);

	/**
	 * Let Curator acquire the lock.
	 * @param timeoutNanos how long to wait, or -1 to wait forever
	 * @return whether the lock was acquired
	 */
	abstract boolean attempt(R recipe, long timeoutNanos) throws Exception;

	/** Record the hold the current thread just acquired, reading its fencing token. */
	abstract Hold firstHold(R recipe) throws Exception;

	/** Release one hold of the lock; {@code owner} is the thread that acquired it. */
	abstract void release(R recipe, Thread owner) throws Exception;

	abstract boolean isHeldByCurrentThread(R recipe);

	/** Whether a handle may be closed by another thread than the one that acquired it. */
	abstract boolean releasableByOtherThreads();

	final LockHandle reenteredHandle(R recipe, RecipeCache.Entry<R> entry, Hold hold) {
		return new Handle(recipe, entry, hold);
	}

	private void releaseQuietly(R recipe) {
		try {
			release(recipe, Thread.currentThread());
		}
		catch (Exception ex) {
			logger.warn("Could not release lock '{}' after failing to read its fencing token", this.path, ex);
		}
	}

	/**
	 * The outermost acquisition of a lock by one holder.
	 *
	 * @param token the fencing token
	 * @param since when it was acquired
	 */
	record Hold(long token, Instant since) {

	}

	private final class Handle implements LockHandle {

		private final R recipe;

		private final RecipeCache.Entry<R> entry;

		private final Hold hold;

		private final Thread owner = Thread.currentThread();

		private volatile boolean closed;

		Handle(R recipe, RecipeCache.Entry<R> entry, Hold hold) {
			this.recipe = recipe;
			this.entry = entry;
			this.hold = hold;
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
				release(this.recipe, this.owner);
			}
			catch (KeeperException.ConnectionLossException | KeeperException.SessionExpiredException ex) {
				// Curator's guaranteed delete removes the node once the connection
				// returns, or the
				// node dies with the session: either way the lock is free, nothing for
				// the caller to do.
				logger.warn("Lock '{}' released while ZooKeeper is unreachable ({}); its node is removed "
						+ "once the connection returns or the session ends", CuratorLock.this.path, ex.code());
			}
			catch (Exception ex) {
				throw new LockReleaseException("Releasing lock '" + CuratorLock.this.path + "' failed: " + ex, ex);
			}
			finally {
				CuratorLock.this.cache.release(this.entry);
			}
		}

		@Override
		public String toString() {
			return "LockHandle[" + CuratorLock.this.kind + " '" + CuratorLock.this.path + "', token "
					+ this.hold.token() + "]";
		}

	}

}
