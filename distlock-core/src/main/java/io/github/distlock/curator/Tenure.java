package io.github.distlock.curator;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockState;

/**
 * The tenures of one participant of a leader election: whether its node leads now, the
 * open {@link TenureHandle}s of the current tenure, the drain of a leaving leader, and
 * who waits to lead. A tenure is a hold of the latch node: it follows its session through
 * a {@link Hold.Node}, the same code as a lock's hold (leading is held, then in doubt or
 * lost; the epoch is its fencing token), as that node's owner: a reconnection within the
 * session has the {@link Member} read the queue again before the node leads again; a loss
 * ends the tenure and tells the {@link Election}; the end of the node's session has the
 * member give the node up and queue again. The participant decides when a tenure starts,
 * and ends it when its node goes; this tells the election and the waiters.
 * <p>
 * Guarded by the participant's monitor, which guards the participant's own state: the
 * participant calls in with it held, and a handle's calls take it.
 */
final class Tenure implements TenureHandle.Source, Hold.Node.Owner {

	private static final Logger logger = LoggerFactory.getLogger(Tenure.class);

	private final Object monitor;

	private final Election election;

	private final Engine engine;

	private final Member member;

	private final LockPath path;

	private final String group;

	// The node of the last tenure, its epoch, and whether it leads (held), is in doubt,
	// or ended (lost); null before the first tenure.
	private Hold.@Nullable Node held;

	private @Nullable Instant since;

	// Bumped for every tenure, so that a tenure's handle knows when it ended.
	private long count;

	// Open handles of the current tenure (work running under it).
	private int inFlight;

	// While a leaving leader waits for the work under its open handles: completes when
	// it is done or the drain time is over.
	private @Nullable CompletableFuture<Void> drained;

	private final List<CompletableFuture<Long>> waiters = new ArrayList<>();

	Tenure(Object monitor, Election election, Engine engine, LockPath path, Member member) {
		this.monitor = monitor;
		this.election = election;
		this.engine = engine;
		this.member = member;
		this.path = path;
		this.group = path.value();
	}

	@Override
	public LockPath path() {
		return this.path;
	}

	@Override
	public String group() {
		return this.group;
	}

	/** Whether a tenure is on: leading, in doubt, or draining. */
	boolean isLeading() {
		Hold.Node held = this.held;
		return held != null && held.isOn();
	}

	/** Whether the node leads for new work now. */
	boolean isLeader() {
		Hold.Node held = this.held;
		return held != null && held.currentState() == LockState.HELD && this.drained == null
				&& this.engine.session().isConnected() && held.isOfSessionInUse();
	}

	/** The epoch of the last tenure: its node's creating zxid. */
	long epoch() {
		Hold.Node held = this.held;
		return (held != null) ? held.token() : 0;
	}

	/** Open a handle of the current tenure, or none if the node does not lead now. */
	@Nullable LockHandle open() {
		Hold.Node held = this.held;
		if (held == null || !isLeader()) {
			return null;
		}
		this.inFlight++;
		return new TenureHandle(this, this.count, held.token(), held.node().path(), this.since);
	}

	/** Completes with the epoch once the node leads. */
	CompletableFuture<Long> await() {
		if (isLeader()) {
			return CompletableFuture.completedFuture(epoch());
		}
		CompletableFuture<Long> waiter = new CompletableFuture<>();
		this.waiters.add(waiter);
		waiter.whenComplete((epoch, ex) -> {
			synchronized (this.monitor) {
				this.waiters.remove(waiter);
			}
		});
		return waiter;
	}

	/** Take the waiters to lead away, to fail them. */
	List<CompletableFuture<Long>> takeWaiters() {
		List<CompletableFuture<Long>> waiting = new ArrayList<>(this.waiters);
		this.waiters.clear();
		return waiting;
	}

	@Override
	public void closed(long tenure) {
		synchronized (this.monitor) {
			if (tenure != this.count) {
				return;
			}
			this.inFlight--;
			CompletableFuture<Void> drained = this.drained;
			if (this.inFlight == 0 && drained != null) {
				this.engine.threads().request(() -> drained.complete(null));
			}
		}
	}

	@Override
	public LockState stateOf(long tenure) {
		synchronized (this.monitor) {
			return stateNow(tenure);
		}
	}

	private LockState stateNow(long tenure) {
		Hold.Node held = this.held;
		if (tenure != this.count || held == null) {
			return LockState.LOST;
		}
		// Judged against the session in use, as a hold: a replaced session ends it.
		LockState state = held.state();
		// A tenure also leads only while connected, before the suspension is told.
		return (state == LockState.HELD && !this.engine.session().isConnected()) ? LockState.IN_DOUBT : state;
	}

	/** Whether the work under open handles must finish before the node goes. */
	boolean mustDrain() {
		return isLeading() && this.inFlight > 0;
	}

	/**
	 * Let the work under the open handles finish (no new work starts, the node still
	 * leads).
	 * @return completes when the last handle is closed, the tenure ends, or the drain
	 * time is over
	 */
	CompletableFuture<Void> drain() {
		CompletableFuture<Void> drained = this.drained;
		if (drained == null) {
			Duration limit = this.election.drain();
			drained = new CompletableFuture<>();
			this.drained = drained;
			CompletableFuture<Void> timeout = drained;
			this.engine.threads()
				.timer()
				.schedule(System.nanoTime() + limit.toNanos(),
						() -> this.engine.threads().request(() -> timeout.complete(null)));
			logger.info("Leaving group '{}': waiting at most {} for {} call(s) under its leadership", this.group, limit,
					this.inFlight);
		}
		return drained;
	}

	/** The drain is over. */
	void drainDone() {
		this.drained = null;
	}

	/** The current tenure's node, as it follows the session; null before the first. */
	@Nullable SessionBound follower() {
		return this.held;
	}

	/** The node that led is still first after the connection came back. */
	void confirmed(LockNode node) {
		Hold.Node held = this.held;
		if (held != null && held.isOn()) {
			held.confirm();
		}
		else {
			start(node);
		}
	}

	/** The node leads: a new tenure, its epoch the node's creating zxid. */
	void start(LockNode node) {
		this.held = new Hold.Node(this.monitor, this.engine.session(), node, node.czxid(), this);
		this.since = Instant.now();
		this.count++;
		this.inFlight = 0;
		long epoch = node.czxid();
		logger.info("Leading group '{}' (epoch {})", this.group, epoch);
		this.election.granted(this.group, epoch);
		List<CompletableFuture<Long>> waiting = takeWaiters();
		for (CompletableFuture<Long> waiter : waiting) {
			this.engine.threads().complete(() -> waiter.complete(epoch));
		}
	}

	/** The tenure ends, if one is on. */
	void end() {
		Hold.Node held = this.held;
		if (held != null) {
			held.end();
		}
	}

	@Override
	public boolean suspensionLoses() {
		return this.election.policy() == ConnectionLossPolicy.SUSPENDED;
	}

	@Override
	public void reconnectedInSession(Hold.Node held) {
		this.member.recheck(held.node());
	}

	@Override
	public void sessionEnded(Hold.Node held) {
		this.member.forget(held.node());
	}

	/**
	 * The tenure of the given node ended: its handles are lost, and the election told.
	 */
	@Override
	public void lost(Hold.Node held) {
		if (held != this.held) {
			return;
		}
		this.count++;
		this.inFlight = 0;
		CompletableFuture<Void> drained = this.drained;
		if (drained != null) {
			// Nothing left to wait for: the tenure is over.
			this.engine.threads().request(() -> drained.complete(null));
		}
		logger.info("No longer leading group '{}' (epoch {})", this.group, held.token());
		this.election.revoked(this.group, held.token());
	}

	/**
	 * What the participant does with the node of a tenure; called under its monitor.
	 */
	interface Member {

		/**
		 * The connection came back within the node's session: read the queue again; the
		 * node leads again ({@link Tenure#confirmed}) only if it is still first.
		 */
		void recheck(LockNode node);

		/**
		 * The session that owns the node ended: give the node up (deleted, as a server
		 * may keep that session a while) and queue again.
		 */
		void forget(LockNode node);

	}

	/** The election a tenure is part of: its policy, and whom to tell. */
	interface Election {

		/** What a suspended connection does to a tenure. */
		ConnectionLossPolicy policy();

		/**
		 * How long a leaving leader waits at most for the work under its open handles
		 * before it deletes its node.
		 */
		Duration drain();

		/** This member's id: its latch nodes' data. */
		String memberId();

		/** A tenure started. */
		void granted(String group, long epoch);

		/** A tenure ended. */
		void revoked(String group, long epoch);

	}

}
