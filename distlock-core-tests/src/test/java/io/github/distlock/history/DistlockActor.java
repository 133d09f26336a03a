package io.github.distlock.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockReentryException;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LockUpgradeException;
import io.github.distlock.core.Locks;
import io.github.distlock.core.MultiLock;
import io.github.distlock.core.MultiLockHandle;
import io.github.distlock.history.HoldRecord.Access;

/**
 * A thread of a distlock node that runs random operations, drawn from its own seeded
 * {@link Random}: every kind of lock, taken synchronously, asynchronously, once, for
 * ever, with a deadline or cancelled mid-wait; re-entries, downgrades, upgrades (which
 * must fail fast) and multi-locks. Every hold's body goes through the fenced store.
 */
final class DistlockActor implements Runnable {

	private static final Duration[] WAITS = { Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1),
			Duration.ofSeconds(2), Duration.ofSeconds(4) };

	private final CheckerRun run;

	private final Node node;

	private final Locks locks;

	private final String name;

	private final long seed;

	/**
	 * Drawn from anew for each operation, so operation n is the same whatever came
	 * before.
	 */
	private Random random;

	DistlockActor(CheckerRun run, Node node, String name, long seed) {
		this.run = run;
		this.node = node;
		this.locks = node.locks;
		this.name = name;
		this.seed = seed;
	}

	@Override
	public void run() {
		while (!this.run.stopping()) {
			int op = this.run.nextOp(this.name);
			this.random = new Random(this.seed * 1_000_003L + op);
			try {
				step(op);
			}
			catch (Throwable ex) {
				this.run.violation(this.name, op, null,
						"unexpected error: the operation failed: " + CheckerRun.trace(ex));
			}
		}
	}

	private void step(int op) {
		int pathIndex = this.random.nextInt(CheckerRun.PATHS);
		String path = CheckerRun.path(pathIndex);
		int choice = this.random.nextInt(100);
		if (choice < 4 || (this.run.queuesAtCeiling() && this.random.nextInt(100) < 30)) {
			// Queues at the ceiling: more mutexes with waiters.
			contended(op, path);
		}
		else if (choice < 12) {
			single(op, this.locks.mutex(path), pathIndex, randomMode(), true);
		}
		else if (choice < 20) {
			single(op, this.locks.nonReentrantMutex(path), pathIndex, randomMode(), true);
		}
		else if (choice < 34) {
			single(op, this.locks.readWrite(path).readLock(), pathIndex, randomMode(), true);
		}
		else if (choice < 46) {
			single(op, this.locks.readWrite(path).writeLock(), pathIndex, randomMode(), true);
		}
		else if (choice < 57) {
			downgrade(op, path);
		}
		else if (choice < 60) {
			downgradeAcrossSessionEnd(op, path, this.random.nextBoolean(), Duration.ofSeconds(2));
		}
		else if (choice < 66) {
			upgrade(op, path);
		}
		else if (choice < 80) {
			single(op, this.locks.semaphore(path, CheckerRun.permits(pathIndex)), pathIndex, randomMode(), true);
		}
		else if (choice < 90) {
			multi(op);
		}
		else {
			single(op, randomLock(pathIndex), pathIndex, Mode.CANCEL, false);
		}
	}

	private ClusterLock randomLock(int pathIndex) {
		String path = CheckerRun.path(pathIndex);
		return switch (this.random.nextInt(5)) {
			case 0 -> this.locks.mutex(path);
			case 1 -> this.locks.nonReentrantMutex(path);
			case 2 -> this.locks.readWrite(path).readLock();
			case 3 -> this.locks.readWrite(path).writeLock();
			default -> this.locks.semaphore(path, CheckerRun.permits(pathIndex));
		};
	}

	private Mode randomMode() {
		int choice = this.random.nextInt(100);
		if (choice < 45) {
			return Mode.SYNC;
		}
		if (choice < 60) {
			return Mode.TRY_ONCE;
		}
		if (choice < 85) {
			return Mode.ASYNC;
		}
		if (choice < 95) {
			return Mode.CANCEL;
		}
		return Mode.FOREVER;
	}

	private Duration randomWait() {
		return WAITS[this.random.nextInt(WAITS.length)];
	}

	/** One lock; when taken on this thread, maybe re-entered (or refused re-entry). */
	private void single(int op, ClusterLock lock, int pathIndex, Mode mode, boolean mayNest) {
		String key = CheckerRun.key(lock.kind(), lock.path().toString());
		LockHandle handle = acquire(op, lock, key, mode, randomWait());
		if (handle == null) {
			return;
		}
		boolean onThread = mode == Mode.SYNC || mode == Mode.TRY_ONCE || mode == Mode.FOREVER;
		HoldRecord hold = this.run.open(op, this.name, this.node.index, key, lock.kind(), pathIndex,
				handle.fencingToken(), 0, handle);
		try {
			this.run.store().enter(hold);
			work(true);
			if (mayNest && onThread && this.random.nextInt(3) == 0) {
				nestSameLock(op, lock, key, pathIndex, hold);
			}
			hold.checkState();
			this.run.store().exit(hold);
		}
		finally {
			release(op, hold, handle);
		}
	}

	/** Inside a hold taken on this thread: the same lock again. */
	private void nestSameLock(int op, ClusterLock lock, String key, int pathIndex, HoldRecord outer) {
		switch (lock.kind()) {
			case MUTEX -> {
				if (!lock.isReentrant()) {
					ClusterLock again = this.random.nextBoolean() ? this.locks.nonReentrantMutex(lock.path())
							: this.locks.mutex(lock.path());
					mustFailFast(op, again, key, LockReentryException.class, "re-entry of a non-reentrant mutex");
					return;
				}
				boolean knownLost = outer.handle.state() != LockState.HELD;
				LockHandle inner = acquire(op, this.locks.mutex(lock.path()), key, Mode.SYNC, randomWait());
				if (inner != null) {
					if (knownLost) {
						this.run.violation(this.name, op, key, "lost hold handed out: re-entry granted into " + outer
								+ ", which its handle had reported " + LockState.LOST);
					}
					HoldRecord hold = this.run.open(op, this.name, this.node.index, key, LockKind.MUTEX, pathIndex,
							inner.fencingToken(), outer.id, inner);
					try {
						this.run.store().enter(hold);
						work(false);
						this.run.store().exit(hold);
					}
					finally {
						release(op, hold, inner);
					}
				}
			}
			default -> {
				// A read re-entered, a semaphore taken twice: nothing more to learn here.
			}
		}
	}

	/** Write, then read nested in it; released in either order. */
	private void downgrade(int op, String path) {
		ClusterLock writeLock = this.locks.readWrite(path).writeLock();
		String key = CheckerRun.key(LockKind.WRITE, path);
		int pathIndex = CheckerRun.pathIndex(path);
		LockHandle write = acquire(op, writeLock, key, this.random.nextBoolean() ? Mode.SYNC : Mode.TRY_ONCE,
				randomWait());
		if (write == null) {
			return;
		}
		HoldRecord writeHold = this.run.open(op, this.name, this.node.index, key, LockKind.WRITE, pathIndex,
				write.fencingToken(), 0, write);
		boolean writeReleased = false;
		try {
			this.run.store().enter(writeHold);
			work(true);
			boolean knownLost = write.state() != LockState.HELD;
			LockHandle read = acquire(op, this.locks.readWrite(path).readLock(), key, Mode.SYNC, randomWait());
			if (read == null) {
				writeHold.checkState();
				this.run.store().exit(writeHold);
				return;
			}
			if (knownLost) {
				this.run.violation(this.name, op, key, "lost hold handed out: downgrade granted into " + writeHold
						+ ", which its handle had reported " + LockState.LOST);
			}
			HoldRecord readHold = this.run.open(op, this.name, this.node.index, key, LockKind.READ, pathIndex,
					read.fencingToken(), writeHold.id, read);
			try {
				this.run.store().enter(readHold);
				work(false);
				if (this.random.nextBoolean()) {
					// The write side goes first: the read side is all that is left.
					writeHold.checkState();
					this.run.store().exit(writeHold);
					release(op, writeHold, write);
					writeReleased = true;
					work(true);
				}
				readHold.checkState();
				this.run.store().exit(readHold);
			}
			finally {
				release(op, readHold, read);
			}
			if (!writeReleased) {
				writeHold.checkState();
				this.run.store().exit(writeHold);
			}
		}
		finally {
			if (!writeReleased) {
				release(op, writeHold, write);
			}
		}
	}

	/**
	 * A mutex with a waiter of every other node queued behind its holder, steered at
	 * mis-ordered queues: no waiter may be granted while the holder is inside the store;
	 * one granted within a moment enters beside it. The waiters are then served in the
	 * order they are granted.
	 */
	private void contended(int op, String path) {
		List<Node> others = this.run.nodes()
			.stream()
			.filter((node) -> node.locks != null && node != this.node)
			.toList();
		String key = CheckerRun.key(LockKind.MUTEX, path);
		int pathIndex = CheckerRun.pathIndex(path);
		if (others.isEmpty()) {
			single(op, this.locks.mutex(path), pathIndex, Mode.SYNC, false);
			return;
		}
		LockHandle handle = acquire(op, this.locks.mutex(path), key, Mode.SYNC, Duration.ofSeconds(2));
		if (handle == null) {
			return;
		}
		HoldRecord hold = this.run.open(op, this.name, this.node.index, key, LockKind.MUTEX, pathIndex,
				handle.fencingToken(), 0, handle);
		Duration otherWait = Duration.ofSeconds(4);
		Map<Node, CompletableFuture<LockHandle>> waiting = new LinkedHashMap<>();
		List<HoldRecord> inside = new ArrayList<>();
		try {
			this.run.store().enter(hold);
			for (Node other : others) {
				this.run.history()
					.record(History.Type.START, this.name + "/" + other.name, op, key, 0,
							"MUTEX ASYNC wait " + otherWait.toMillis() + " ms, behind " + hold);
				waiting.put(other, other.locks.mutex(path).acquireAsync(otherWait));
			}
			long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
			for (Map.Entry<Node, CompletableFuture<LockHandle>> entry : List.copyOf(waiting.entrySet())) {
				Duration left = Duration.ofNanos(Math.max(0, until - System.nanoTime()));
				HoldRecord other = otherGranted(op, key, pathIndex, entry.getKey(), entry.getValue(), left, false);
				if (other != null || entry.getValue().isDone()) {
					waiting.remove(entry.getKey());
				}
				if (other != null) {
					inside.add(other);
				}
			}
			hold.checkState();
			this.run.store().exit(hold);
		}
		finally {
			release(op, hold, handle);
			for (HoldRecord other : inside) {
				leave(op, other);
			}
		}
		long deadline = System.nanoTime() + otherWait.plus(this.run.slack()).plusSeconds(10).toNanos();
		while (!waiting.isEmpty()) {
			Optional<Map.Entry<Node, CompletableFuture<LockHandle>>> done = waiting.entrySet()
				.stream()
				.filter((entry) -> entry.getValue().isDone())
				.findFirst();
			if (done.isEmpty() && System.nanoTime() < deadline) {
				park(5);
				continue;
			}
			Map.Entry<Node, CompletableFuture<LockHandle>> entry = done.orElse(waiting.entrySet().iterator().next());
			waiting.remove(entry.getKey());
			HoldRecord other = otherGranted(op, key, pathIndex, entry.getKey(), entry.getValue(), Duration.ZERO, true);
			if (other != null) {
				leave(op, other);
			}
		}
	}

	/** Work inside a hold of another node, leave the store and release it. */
	private void leave(int op, HoldRecord other) {
		try {
			work(false);
			other.checkState();
			this.run.store().exit(other);
		}
		finally {
			release(op, other, other.handle);
		}
	}

	/**
	 * The hold of another node's mutex acquisition, entered into the store, once granted
	 * within the given time; {@code null} if it failed, or is not granted in time (then
	 * cancelled, if it is the last chance).
	 */
	@Nullable private HoldRecord otherGranted(int op, String key, int pathIndex, Node other, CompletableFuture<LockHandle> future,
			Duration within, boolean last) {
		String otherActor = this.name + "/" + other.name;
		LockHandle handle = otherGranted(op, otherActor, key, future, within, last);
		if (handle == null) {
			return null;
		}
		HoldRecord hold = this.run.open(op, otherActor, other.index, key, LockKind.MUTEX, pathIndex,
				handle.fencingToken(), 0, handle);
		// Granted some time ago, maybe lost since (its loss report matched no open hold).
		hold.checkState();
		this.run.store().enter(hold);
		return hold;
	}

	/** The next distlock node after this one, or this one if it is the only one. */
	private Node otherNode() {
		List<Node> distlockNodes = this.run.nodes().stream().filter((node) -> node.locks != null).toList();
		return distlockNodes.get((distlockNodes.indexOf(this.node) + 1) % distlockNodes.size());
	}

	/**
	 * The handle of another node's acquisition, once granted within the given time;
	 * {@code null} if it failed, or (cancelled then) if it timed out past its own wait.
	 */
	@Nullable private LockHandle otherGranted(int op, String otherActor, String key, CompletableFuture<LockHandle> future,
			Duration within, boolean last) {
		try {
			LockHandle handle = future.get(within.toMillis(), TimeUnit.MILLISECONDS);
			this.run.history().record(History.Type.GRANTED, otherActor, op, key, handle.fencingToken(), "");
			return handle;
		}
		catch (TimeoutException ex) {
			if (last) {
				future.cancel(true);
				this.run.history().record(History.Type.ENDED, otherActor, op, key, 0, "not granted in time");
			}
			return null;
		}
		catch (ExecutionException ex) {
			this.run.history().record(History.Type.ENDED, otherActor, op, key, 0, "not granted: " + ex.getCause());
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * One downgrade across the end of its write hold's session, in the run's steered
	 * phase ({@link CheckerRun#steerDowngrades}): its path drawn from the operation's
	 * generator, and the downgrade asked for once the client is connected in its new
	 * session.
	 * @return whether the scene was set: the downgrade was asked for in the new session,
	 * and the other node's writer was granted
	 */
	boolean steeredDowngrade() {
		int op = this.run.nextOp(this.name);
		this.random = new Random(this.seed * 1_000_003L + op);
		try {
			return downgradeAcrossSessionEnd(op, CheckerRun.path(this.random.nextInt(CheckerRun.PATHS)), true,
					Duration.ofSeconds(4));
		}
		catch (Throwable ex) {
			this.run.violation(this.name, op, null, "unexpected error: the operation failed: " + CheckerRun.trace(ex));
			return false;
		}
	}

	/**
	 * A downgrade across the end of its write hold's session, steered at the double grant
	 * of a lost write hold: the write lock is taken, a writer of another node queues
	 * behind it, this node's session is ended on the server, and then the read side is
	 * asked for (it must be refused) while the other writer takes over: at once, or once
	 * the client is connected in a new session (the read side of a lost write hold is
	 * then made in the session that did not hold it). A read side granted all the same is
	 * inside the store when the other writer enters.
	 * @return whether the scene was set: the read side was asked for after the session's
	 * end (in a new session, if it was to wait for one), and the other writer was granted
	 */
	private boolean downgradeAcrossSessionEnd(int op, String path, boolean inNewSession, Duration writeWait) {
		Node other = otherNode();
		if (other == this.node) {
			downgrade(op, path);
			return false;
		}
		String key = CheckerRun.key(LockKind.WRITE, path);
		int pathIndex = CheckerRun.pathIndex(path);
		LockHandle write = acquire(op, this.locks.readWrite(path).writeLock(), key, Mode.SYNC, writeWait);
		if (write == null) {
			return false;
		}
		HoldRecord writeHold = this.run.open(op, this.name, this.node.index, key, LockKind.WRITE, pathIndex,
				write.fencingToken(), 0, write);
		boolean asked = false;
		LockHandle otherHandle = null;
		try {
			this.run.store().enter(writeHold);
			String otherActor = this.name + "/" + other.name;
			Duration otherWait = Duration.ofSeconds(4);
			this.run.history()
				.record(History.Type.START, otherActor, op, key, 0,
						"WRITE ASYNC wait " + otherWait.toMillis() + " ms, behind " + writeHold);
			CompletableFuture<LockHandle> otherWrite = other.locks.readWrite(path).writeLock().acquireAsync(otherWait);
			LockHandle read = null;
			long session = sessionId();
			if (this.run.injector().endSession(this.node, "downgrade of " + writeHold + " next")
					&& (!inNewSession || connectedInNewSession(session))) {
				asked = true;
				read = acquire(op, this.locks.readWrite(path).readLock(), key, Mode.SYNC, Duration.ofSeconds(1));
			}
			HoldRecord readHold = null;
			if (read != null) {
				readHold = this.run.open(op, this.name, this.node.index, key, LockKind.READ, pathIndex,
						read.fencingToken(), writeHold.id, read);
				this.run.store().enter(readHold);
			}
			otherHandle = otherGranted(op, otherActor, key, otherWrite,
					otherWait.plus(this.run.slack()).plusSeconds(10), true);
			if (otherHandle != null) {
				HoldRecord otherHold = this.run.open(op, otherActor, other.index, key, LockKind.WRITE, pathIndex,
						otherHandle.fencingToken(), 0, otherHandle);
				// Granted a while ago: maybe lost since.
				otherHold.checkState();
				try {
					this.run.store().enter(otherHold);
					work(false);
					otherHold.checkState();
					this.run.store().exit(otherHold);
				}
				finally {
					release(op, otherHold, otherHandle);
				}
			}
			if (readHold != null) {
				try {
					readHold.checkState();
					this.run.store().exit(readHold);
				}
				finally {
					release(op, readHold, read);
				}
			}
			writeHold.checkState();
			this.run.store().exit(writeHold);
		}
		finally {
			release(op, writeHold, write);
		}
		return asked && otherHandle != null;
	}

	/** The id of the client's session now, {@code 0} if it has none. */
	private long sessionId() {
		try {
			return this.node.client.getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			return 0;
		}
	}

	/**
	 * Wait, two session timeouts at most, until the client is connected in another
	 * session than the given one.
	 * @return whether it is
	 */
	private boolean connectedInNewSession(long ended) {
		long deadline = System.nanoTime() + this.run.slack().multipliedBy(2).toNanos();
		while (System.nanoTime() < deadline) {
			if (this.node.client.getZookeeperClient().isConnected()) {
				long session = sessionId();
				if (session != 0 && session != ended) {
					this.run.history()
						.record(History.Type.FAULT, this.name, 0, null, 0, "connected in session 0x"
								+ Long.toHexString(session) + " after 0x" + Long.toHexString(ended) + " was ended");
					return true;
				}
			}
			park(20);
		}
		return false;
	}

	/** Read, then write nested in it: must fail fast. */
	private void upgrade(int op, String path) {
		String key = CheckerRun.key(LockKind.READ, path);
		LockHandle read = acquire(op, this.locks.readWrite(path).readLock(), key, Mode.SYNC, randomWait());
		if (read == null) {
			return;
		}
		HoldRecord hold = this.run.open(op, this.name, this.node.index, key, LockKind.READ, CheckerRun.pathIndex(path),
				read.fencingToken(), 0, read);
		try {
			this.run.store().enter(hold);
			mustFailFast(op, this.locks.readWrite(path).writeLock(), key, LockUpgradeException.class,
					"write nested in read");
			hold.checkState();
			this.run.store().exit(hold);
		}
		finally {
			release(op, hold, read);
		}
	}

	private void mustFailFast(int op, ClusterLock lock, String key, Class<? extends Exception> expected, String what) {
		long start = System.nanoTime();
		this.run.history().record(History.Type.START, this.name, op, key, 0, lock.kind() + " " + what);
		try {
			LockHandle handle = lock.acquire(Duration.ofSeconds(10));
			handle.close();
			this.run.violation(this.name, op, key,
					"fail fast: " + what + " was granted; it must fail fast with " + expected.getSimpleName());
		}
		catch (RuntimeException ex) {
			long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
			this.run.history()
				.record(History.Type.ENDED, this.name, op, key, 0,
						ex.getClass().getSimpleName() + " after " + took + " ms");
			if (!expected.isInstance(ex) && !(ex instanceof io.github.distlock.core.LockLostException)) {
				this.run.violation(this.name, op, key,
						"fail fast: " + what + " failed with " + ex + " instead of " + expected.getSimpleName());
			}
			else if (took > this.run.slack().toMillis()) {
				this.run.violation(this.name, op, key, "fail fast: " + what + " took " + took + " ms to fail");
			}
		}
	}

	private void multi(int op) {
		int first = this.random.nextInt(CheckerRun.PATHS);
		int second = (first + 1 + this.random.nextInt(CheckerRun.PATHS - 1)) % CheckerRun.PATHS;
		List<ClusterLock> chosen = List.of(randomLock(first), randomLock(second));
		MultiLock multi = this.locks.multi(chosen);
		Duration wait = randomWait();
		String keys = CheckerRun.key(chosen.get(0).kind(), chosen.get(0).path().toString()) + "+"
				+ CheckerRun.key(chosen.get(1).kind(), chosen.get(1).path().toString());
		long start = System.nanoTime();
		boolean async = this.random.nextBoolean();
		this.run.history()
			.record(History.Type.START, this.name, op, keys, 0,
					"MULTI " + (async ? "ASYNC" : "SYNC") + " wait " + wait.toMillis() + " ms");
		MultiLockHandle handle;
		try {
			if (async) {
				handle = multi.acquireAsync(wait)
					.get(wait.toMillis() + this.run.slack().toMillis() + 10_000, TimeUnit.MILLISECONDS);
			}
			else {
				handle = multi.acquire(wait);
			}
		}
		catch (Exception ex) {
			Throwable cause = (ex instanceof ExecutionException) ? ex.getCause() : ex;
			ended(op, keys, start, System.nanoTime(), wait, cause);
			return;
		}
		checkDeadline(op, keys, start, System.nanoTime(), wait, "granted");
		List<HoldRecord> holds = new ArrayList<>();
		try {
			for (LockHandle sub : handle.handles()) {
				String key = CheckerRun.key(sub.kind(), sub.path().toString());
				this.run.history().record(History.Type.GRANTED, this.name, op, key, sub.fencingToken(), "in multi");
				HoldRecord hold = this.run.open(op, this.name, this.node.index, key, sub.kind(),
						CheckerRun.pathIndex(sub.path().toString()), sub.fencingToken(), 0, sub);
				holds.add(hold);
				this.run.store().enter(hold);
			}
			work(true);
			for (HoldRecord hold : holds) {
				hold.checkState();
				this.run.store().exit(hold);
			}
		}
		finally {
			holds.forEach(HoldRecord::checkState);
			try {
				handle.close();
			}
			catch (RuntimeException ex) {
				this.run.history().record(History.Type.RELEASED, this.name, op, keys, 0, "release failed: " + ex);
			}
			for (HoldRecord hold : holds) {
				this.run.released(hold, "multi");
			}
		}
	}

	/**
	 * Acquire as the mode says; record the start and end, and check the deadline.
	 * @return the handle, or {@code null} if not granted
	 */
	@Nullable private LockHandle acquire(int op, ClusterLock lock, String key, Mode mode, Duration wait) {
		Duration effective = switch (mode) {
			case TRY_ONCE -> Duration.ZERO;
			case FOREVER -> Locks.WAIT_FOREVER;
			default -> wait;
		};
		long start = System.nanoTime();
		this.run.history()
			.record(History.Type.START, this.name, op, key, 0,
					lock.kind() + " " + mode + " wait " + effective.toMillis() + " ms");
		if (mode == Mode.SYNC || mode == Mode.TRY_ONCE || mode == Mode.FOREVER) {
			try {
				LockHandle handle = lock.acquire(effective);
				granted(op, key, start, System.nanoTime(), effective, handle);
				return handle;
			}
			catch (RuntimeException ex) {
				ended(op, key, start, System.nanoTime(), effective, ex);
				return null;
			}
		}
		AtomicLong completed = new AtomicLong();
		CompletableFuture<LockHandle> future = lock.acquireAsync(effective);
		future.whenComplete((handle, ex) -> completed.set(System.nanoTime()));
		if (mode == Mode.CANCEL) {
			park(this.random.nextInt(300));
			if (future.cancel(true)) {
				this.run.history().record(History.Type.ENDED, this.name, op, key, 0, "cancelled");
				return null;
			}
		}
		try {
			LockHandle handle = future.get(Math.max(0, effective.toMillis()) + this.run.slack().toMillis() + 10_000,
					TimeUnit.MILLISECONDS);
			granted(op, key, start, completedAt(completed), effective, handle);
			return handle;
		}
		catch (ExecutionException ex) {
			ended(op, key, start, completedAt(completed), effective, ex.getCause());
			return null;
		}
		catch (TimeoutException ex) {
			this.run.violation(this.name, op, key, "deadline: the asynchronous acquisition did not complete within "
					+ effective.toMillis() + " ms + " + this.run.slack().toMillis() + " ms slack + 10 s");
			future.cancel(true);
			return null;
		}
		catch (CancellationException ex) {
			ended(op, key, start, System.nanoTime(), effective, ex);
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static long completedAt(AtomicLong completed) {
		long at = completed.get();
		return (at != 0) ? at : System.nanoTime();
	}

	private void granted(int op, String key, long start, long end, Duration wait, LockHandle handle) {
		this.run.history()
			.record(History.Type.GRANTED, this.name, op, key, handle.fencingToken(),
					"after " + TimeUnit.NANOSECONDS.toMillis(end - start) + " ms");
		checkDeadline(op, key, start, end, wait, "granted");
	}

	private void ended(int op, String key, long start, long end, Duration wait, Throwable failure) {
		long took = TimeUnit.NANOSECONDS.toMillis(end - start);
		this.run.history()
			.record(History.Type.ENDED, this.name, op, key, 0,
					failure.getClass().getSimpleName() + " after " + took + " ms: " + failure.getMessage());
		if (!(failure instanceof DistributedLockException) && !(failure instanceof CancellationException)) {
			this.run.violation(this.name, op, key,
					"unexpected error: acquisition failed with " + CheckerRun.trace(failure));
		}
		if (failure instanceof DistributedLockException) {
			checkDeadline(op, key, start, end, wait, "ended");
		}
	}

	/**
	 * Invariant 4 of docs/failure-model.md: every acquisition ends by its deadline plus
	 * the slack.
	 */
	private void checkDeadline(int op, String key, long start, long end, Duration wait, String what) {
		if (wait.isNegative()) {
			return;
		}
		long took = TimeUnit.NANOSECONDS.toMillis(end - start);
		if (took > wait.plus(this.run.slack()).toMillis()) {
			this.run.violation(this.name, op, key, "deadline: not kept, " + what + " after " + took + " ms, wait "
					+ wait.toMillis() + " ms + slack " + this.run.slack().toMillis() + " ms");
		}
	}

	private void release(int op, HoldRecord hold, LockHandle handle) {
		hold.checkState();
		try {
			handle.close();
		}
		catch (RuntimeException ex) {
			this.run.history()
				.record(History.Type.RELEASED, this.name, op, hold.lock, hold.token, "release failed: " + ex);
		}
		this.run.released(hold, "");
	}

	/** The body's work: a few milliseconds, or now and then a long pause (a GC, say). */
	private void work(boolean mayPause) {
		if (mayPause && this.random.nextInt(100) < 4) {
			this.run.pausing(this.node.index, true);
			try {
				park(800 + this.random.nextInt(1700));
			}
			finally {
				this.run.pausing(this.node.index, false);
			}
		}
		else {
			park(this.random.nextInt(10));
		}
	}

	static void park(long millis) {
		long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
		long left;
		while ((left = until - System.nanoTime()) > 0) {
			java.util.concurrent.locks.LockSupport.parkNanos(left);
		}
	}

	/** How an acquisition is made. */
	enum Mode {

		/** {@code acquire(wait)} on this thread. */
		SYNC,

		/** {@code acquire(Duration.ZERO)}: try once. */
		TRY_ONCE,

		/** {@code acquireAsync(wait)}, awaited. */
		ASYNC,

		/** {@code acquireAsync(wait)}, cancelled after a moment. */
		CANCEL,

		/** {@code acquire(WAIT_FOREVER)}. */
		FOREVER

	}

}
