package io.github.distlock.curator;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.WaitingAcquisition;

/**
 * One acquisition of a lock in flight, from the call until its {@linkplain #outcome()
 * outcome}: a {@link Hold}, a timeout, a cancellation or a failure; whichever completes
 * the outcome first wins, and a grant that comes too late is released at once. It takes
 * its turn in this client's {@linkplain LocalQueues local queue} of the path, where the
 * lock is exclusive, then works in ZooKeeper: a mutex's or one side of a read/write
 * lock's with one {@link QueuePosition}, held as soon as its driver says so; a
 * semaphore's with its own positions ({@link SemaphoreAcquisition}). Its deadline is a
 * {@linkplain Timer timer}. It never blocks and never runs user code.
 */
class Acquisition implements QueuePosition.Owner, Session.Waiting, LocalTurns.Turn {

	/**
	 * How long a try-once ({@code waitTime} zero) waits for ZooKeeper's first answer (and
	 * for a new client's first connection). It fails at once when the lock is taken, or
	 * when the connection is lost.
	 */
	static final Duration TRY_ONCE_BOUND = Duration.ofSeconds(1);

	/** Pause before a stalled acquisition tries again on a connection that is back. */
	private static final Duration STALL_RETRY = Duration.ofMillis(50);

	private final Engine engine;

	private final LockKind kind;

	private final LockPath path;

	private final String holder;

	private final Duration waitTime;

	private final Instant startedAt = Instant.now();

	private final long startNanos = System.nanoTime();

	private final @Nullable AcquisitionEvents events;

	private final CompletableFuture<Hold> outcome = new CompletableFuture<>();

	// Guarded by this.
	private Timer.@Nullable Scheduled deadline;

	// The local queue whose turn this acquisition has (or waits for), or null.
	private final @Nullable String turnPath;

	// Guarded by this.
	private boolean hasTurn;

	// Written holding this, read without it (by the deadline timer): whether the lock was
	// found taken at least once.
	private volatile boolean answered;

	// Guarded by this: whether the work in ZooKeeper started.
	private boolean begun;

	// The node in the queue; null for a semaphore's, which has its own.
	private final @Nullable QueuePosition position;

	// The write lock the holder holds, for a downgrading reader, or null.
	private final @Nullable Downgrade downgrade;

	/**
	 * Create an acquisition.
	 * @param queuePath the queue's node (a semaphore's: its guard's, for the local turn)
	 * @param driver the protocol, or {@code null} for a semaphore's acquisition, which
	 * makes its own positions
	 * @param exclusive whether this client's acquisitions queue locally first
	 * @param downgrade the write lock the holder holds, for a downgrading reader, or
	 * {@code null}
	 */
	Acquisition(Engine engine, LockKind kind, LockPath path, String queuePath, @Nullable QueueDriver driver,
			String holder, Duration waitTime, boolean exclusive, @Nullable Downgrade downgrade) {
		this.engine = engine;
		this.kind = kind;
		this.path = path;
		this.holder = holder;
		this.waitTime = waitTime;
		this.turnPath = exclusive ? queuePath : null;
		this.events = engine.events(kind, path);
		this.downgrade = downgrade;
		// Only an exclusive mutex's node may be proved alone by its number.
		LoneCheck lone = (exclusive && driver == QueueDriver.MUTEX && downgrade == null)
				? new LoneCheck(engine.loneQueues(), queuePath) : LoneCheck.OFF;
		this.position = (driver != null) ? new QueuePosition(engine, this, queuePath, driver,
				engine.identity().nodeData(holder), downgrade, lone) : null;
	}

	/** The position in the queue (for tests). */
	@Nullable QueuePosition position() {
		return this.position;
	}

	/**
	 * Start the acquisition: arm its deadline, take its turn in the local queue (or line
	 * up for it) and go to ZooKeeper when the turn comes.
	 * @return the outcome
	 */
	final CompletableFuture<Hold> start() {
		this.outcome.whenComplete((hold, ex) -> {
			if (this.engine.threads().isTimerThread()) {
				// The timer decides and goes on: what follows may wait for the
				// acquisition's monitor or send requests.
				this.engine.threads().request(() -> ended(hold, ex));
			}
			else {
				ended(hold, ex);
			}
		});
		this.engine.session().follow(this);
		if (this.engine.isClosed()) {
			// Also when close() came between the check of the caller and now: its sweep
			// of the acquisitions may have missed this one.
			fail(closed());
			return this.outcome;
		}
		if (isTryOnce() && this.engine.session().isDisconnected()) {
			// A try-once does not wait for a lost connection to return (it does wait,
			// within its bound, for a client's first connection).
			this.outcome.completeExceptionally(timeout(null));
			return this.outcome;
		}
		started();
		if (!this.waitTime.isNegative()) {
			long nanos = isTryOnce() ? TRY_ONCE_BOUND.toNanos() : saturatedNanos(this.waitTime);
			long at = this.startNanos + nanos;
			if (at - this.startNanos >= 0) {
				Timer.Scheduled timeout = this.engine.threads().timer().schedule(at, this::expire);
				synchronized (this) {
					this.deadline = timeout;
				}
				if (this.outcome.isDone()) {
					timeout.cancel();
				}
			}
		}
		if (this.turnPath == null) {
			synchronized (this) {
				beginIfConnected();
			}
		}
		else if (this.engine.localQueues().enter(this.turnPath, this)) {
			if (!takeTurn()) {
				this.engine.localQueues().leave(this.turnPath);
			}
		}
		else if (localTurnMeansTaken()) {
			// Another acquisition of this client has the lock, or is about to.
			synchronized (this) {
				this.answered = true;
			}
			if (isTryOnce()) {
				this.outcome.completeExceptionally(timeout(null));
			}
		}
		return this.outcome;
	}

	/** The error of an acquisition on closed locks. */
	@Override
	public final LockAcquisitionException closed() {
		return new LockAcquisitionException(
				"Lock '" + this.path + "' cannot be acquired: the locks of this client were closed", null);
	}

	/** Called as the acquisition starts, before its local turn, without the monitor. */
	void started() {
	}

	/** Whether another local acquisition's turn means the lock is taken (exclusive). */
	boolean localTurnMeansTaken() {
		return true;
	}

	/**
	 * This acquisition's turn came in the local queue: take it and go to ZooKeeper.
	 * @return {@code false} if the acquisition is over already and declines the turn,
	 * which the caller then passes on
	 */
	@Override
	public final boolean takeTurn() {
		synchronized (this) {
			if (this.outcome.isDone()) {
				return false;
			}
			this.hasTurn = true;
			beginIfConnected();
			return true;
		}
	}

	// Requests are only sent while connected (no node is created for an acquisition that
	// gives up before the connection returns); the connection's return resumes the rest.
	private void beginIfConnected() {
		if (this.begun) {
			return;
		}
		if (this.engine.session().isReady()) {
			this.begun = true;
			begin();
		}
		else if (this.engine.session().isConnected()) {
			this.engine.session().prepareNamespace();
		}
	}

	/** ZooKeeper refused the namespace node: fail, unless requests were sent already. */
	@Override
	public final void failBeforeBegin(Exception refused) {
		synchronized (this) {
			if (this.begun) {
				return;
			}
		}
		fail(refused);
	}

	/** Start the work in ZooKeeper; called once, holding this acquisition's monitor. */
	void begin() {
		this.position.start();
	}

	/** The connection is back: go on in ZooKeeper. Holding this acquisition's monitor. */
	void resumeInZooKeeper() {
		this.position.resume();
	}

	/** Give up the work in ZooKeeper: delete every node. Holding the monitor. */
	void abandonInZooKeeper() {
		this.position.abandon();
	}

	@Override
	public void granted(QueuePosition position, LockNode node) {
		// A downgrade enters the write lock's hold: it carries its token, which is older
		// than the nodes queued behind the write lock (its own node is younger).
		grant(node, (this.downgrade != null) ? this.downgrade.write().fencingToken() : node.czxid());
	}

	@Override
	public void waiting(QueuePosition position) {
		this.answered = true;
		if (isTryOnce()) {
			this.outcome.completeExceptionally(timeout(null));
		}
	}

	@Override
	public void stalled(QueuePosition position) {
		if (isTryOnce() && !this.answered) {
			this.outcome.completeExceptionally(timeout(null));
		}
		else if (this.engine.session().isConnected()) {
			// The connection came back before this answer did: its event may have been
			// seen already, so do not wait for the next one.
			this.engine.threads().requestAfter(STALL_RETRY, this::resume);
		}
	}

	@Override
	public boolean mayRecreate(QueuePosition position) {
		return true;
	}

	@Override
	public void vanished(QueuePosition position) {
	}

	@Override
	public void failed(QueuePosition position, Exception ex) {
		fail(ex);
	}

	/** Fail the acquisition with the given problem. */
	@Override
	public final void fail(Exception ex) {
		this.outcome.completeExceptionally(new AcquisitionFailures(this.engine, this.path, this.waitTime).failure(ex));
	}

	/** The connection came back. */
	@Override
	public final void resume() {
		synchronized (this) {
			if (this.outcome.isDone()) {
				return;
			}
			if (!this.begun) {
				if (this.turnPath == null || this.hasTurn) {
					beginIfConnected();
				}
			}
			else {
				resumeInZooKeeper();
			}
		}
	}

	/** The connection came back: go on, in ZooKeeper or locally. */
	@Override
	public final void reconnected() {
		resume();
	}

	/**
	 * The session ended: nothing to do until the connection returns, when the position
	 * finds its node gone and queues again with a new one.
	 */
	@Override
	public final void lost() {
	}

	/** The connection was suspended. */
	@Override
	public final void suspended() {
		synchronized (this) {
			if (isTryOnce() && !this.answered) {
				this.outcome.completeExceptionally(timeout(null));
			}
		}
	}

	/**
	 * Complete the acquisition with the hold of the given node, or release the hold if
	 * the acquisition is over already. The hold keeps this acquisition's local turn until
	 * it is released or lost, unless the turn was {@linkplain #leaveTurn() left} before.
	 * Holding this acquisition's monitor.
	 * @param node the node that holds the lock
	 * @param token the fencing token of the hold: the node's creating zxid, or the token
	 * of the hold it enters (a downgrade)
	 */
	final void grant(LockNode node, long token) {
		String turn = null;
		synchronized (this) {
			if (this.hasTurn) {
				this.hasTurn = false;
				turn = this.turnPath;
			}
		}
		Hold hold = new Hold(this.engine, this.kind, this.path, node, token, this.holder, this.events, turn);
		this.engine.session().register(hold);
		if (!this.outcome.complete(hold)) {
			hold.closeAsync();
		}
	}

	/** Pass this acquisition's local turn on to the next local acquisition now. */
	final void leaveTurn() {
		boolean leave;
		synchronized (this) {
			leave = this.hasTurn;
			this.hasTurn = false;
		}
		if (leave) {
			this.engine.localQueues().leave(this.turnPath);
		}
	}

	/** Whether the outcome is decided. */
	final boolean isDone() {
		return this.outcome.isDone();
	}

	/** Note that the lock was found taken (for the timeout's message). */
	final synchronized void foundTaken() {
		this.answered = true;
	}

	private void expire() {
		this.outcome.completeExceptionally(timeout(null));
	}

	private void ended(@Nullable Hold hold, @Nullable Throwable ex) {
		boolean leave;
		synchronized (this) {
			if (this.deadline != null) {
				this.deadline.cancel();
			}
			if (ex != null) {
				abandonInZooKeeper();
			}
			leave = this.hasTurn;
			this.hasTurn = false;
		}
		this.engine.session().unfollow(this);
		if (this.turnPath != null) {
			if (leave) {
				this.engine.localQueues().leave(this.turnPath);
			}
			else if (ex != null) {
				this.engine.localQueues().withdraw(this.turnPath, this);
			}
		}
	}

	/** The outcome of this acquisition; completes on whichever thread decided it. */
	final CompletableFuture<Hold> outcome() {
		return this.outcome;
	}

	final boolean isTryOnce() {
		return this.waitTime.isZero();
	}

	final Engine engine() {
		return this.engine;
	}

	final LockPath path() {
		return this.path;
	}

	final @Nullable AcquisitionEvents events() {
		return this.events;
	}

	@Override
	public final WaitingAcquisition snapshot() {
		return new WaitingAcquisition(this.kind, this.path, this.holder, this.startedAt);
	}

	/** The exception a caller gets when this acquisition timed out now. */
	final LockTimeoutException timeout(@Nullable Throwable cause) {
		return new AcquisitionFailures(this.engine, this.path, this.waitTime).timeout(this.answered, this.startNanos,
				cause);
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE;
		}
	}

}
