package io.github.distlock.curator;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockState;

/**
 * This client's part in one group's election: Curator's {@code LeaderLatch}, node for
 * node, on the engine. While it waits, a {@link QueuePosition} with the
 * {@linkplain QueueDriver#LATCH latch driver} holds its {@code latch-} node (the
 * predecessor watched, the node made again when its session ended); once that node is
 * first, the participant leads: a <em>tenure</em>, which follows the connection and the
 * node itself (a watch on it) until it ends.
 * <ul>
 * <li>Suspended: under {@link ConnectionLossPolicy#SUSPENDED} the tenure ends at once;
 * under {@link ConnectionLossPolicy#LOST} it is in doubt (not leading for new work, not
 * ended).</li>
 * <li>Reconnected in the same session: the queue is read again, as {@code LeaderLatch}
 * does; the same node still first leads again (an ended tenure starts anew with the same
 * epoch, since no other member can have led meanwhile).</li>
 * <li>Lost (session ended), or the node deleted: the tenure ends, and the participant
 * queues again with a new node; its node of the old session is deleted, as
 * {@code LeaderLatch}'s reset does (a server may keep that session a while longer).</li>
 * </ul>
 * No thread is kept per participant: everything is driven by ZooKeeper's answers and
 * watches and by the connection's events, which the {@link SessionWatch} tells it, as it
 * tells the holds and acquisitions of the same session. State is guarded by this object's
 * monitor, which also guards its position.
 */
final class Participant implements QueuePosition.Owner, SessionBound {

	private static final Logger logger = LoggerFactory.getLogger(Participant.class);

	/** Pause before starting again after ZooKeeper refused our node. */
	private static final Duration RETRY = Duration.ofSeconds(1);

	/**
	 * How long a leaving leader waits at most for the work under its open tenure handles
	 * before it deletes its node.
	 */
	static final Duration DRAIN = Duration.ofSeconds(10);

	/** Pause before a stalled read tries again on a connection that is back. */
	private static final Duration STALL_RETRY = Duration.ofMillis(50);

	/** Pause while the namespace node is made sure of. */
	private static final Duration NOT_READY = Duration.ofMillis(50);

	private final CuratorLeadership leadership;

	private final Engine engine;

	private final String group;

	private final LockPath path;

	private final String queuePath;

	private final Watcher nodeWatch = this::nodeChanged;

	// Guarded by this.

	private boolean joined;

	private @Nullable QueuePosition position;

	// Our latch node while it leads, or led and may lead again (suspended, in doubt).
	private @Nullable LockNode node;

	private boolean leading;

	private boolean inDoubt;

	private long epoch;

	private @Nullable Instant since;

	// Bumped for every tenure, so that a tenure's handle knows when it ended.
	private long tenure;

	private @Nullable Exception lastFailure;

	// Open handles of the current tenure (work running under it).
	private int inFlight;

	// While a leaving leader waits for the work under its open handles: completes when
	// it is done or the drain time is over.
	private @Nullable CompletableFuture<Void> drained;

	private final List<CompletableFuture<Long>> waiters = new ArrayList<>();

	Participant(CuratorLeadership leadership, Engine engine, LockPath path) {
		this.leadership = leadership;
		this.engine = engine;
		this.group = path.value();
		this.path = path;
		this.queuePath = CuratorLock.queuePath(LockKind.LEADER, path);
	}

	String group() {
		return this.group;
	}

	LockPath path() {
		return this.path;
	}

	String queuePath() {
		return this.queuePath;
	}

	// The application's side

	synchronized void join() {
		if (this.joined) {
			return;
		}
		this.joined = true;
		queue();
	}

	/**
	 * Leave the election: end the tenure and delete our node.
	 * @return completes once the delete is confirmed
	 */
	CompletableFuture<Void> leave() {
		List<CompletableFuture<Long>> waiting;
		CompletableFuture<Void> deleted;
		synchronized (this) {
			this.joined = false;
			waiting = new ArrayList<>(this.waiters);
			this.waiters.clear();
			if (this.leading && this.inFlight > 0) {
				deleted = drainThenDrop();
			}
			else {
				deleted = dropNode();
			}
		}
		for (CompletableFuture<Long> waiter : waiting) {
			this.engine.threads()
				.complete(() -> waiter.completeExceptionally(new DistributedLockException(
						"Left the election of group '" + this.group + "' before leading it")));
		}
		return deleted;
	}

	/**
	 * Let the work under the open handles of the tenure finish (no new work starts, the
	 * node still leads), then delete the node: a graceful hand-over, with no overlap.
	 */
	private CompletableFuture<Void> drainThenDrop() {
		CompletableFuture<Void> drained = this.drained;
		if (drained == null) {
			drained = new CompletableFuture<>();
			this.drained = drained;
			CompletableFuture<Void> timeout = drained;
			this.engine.threads()
				.timer()
				.schedule(System.nanoTime() + DRAIN.toNanos(),
						() -> this.engine.threads().request(() -> timeout.complete(null)));
			logger.info("Leaving group '{}': waiting at most {} for {} call(s) under its leadership", this.group, DRAIN,
					this.inFlight);
		}
		return drained.thenCompose((done) -> {
			synchronized (this) {
				this.drained = null;
				CompletableFuture<Void> deleted = dropNode();
				if (this.joined) {
					queue();
				}
				return deleted;
			}
		});
	}

	/** Give up the tenure: queue again at the end with a new node. */
	synchronized void relinquish() {
		if (!this.joined || !this.leading) {
			return;
		}
		dropNode();
		queue();
	}

	synchronized boolean isJoined() {
		return this.joined;
	}

	synchronized boolean isLeader() {
		LockNode node = this.node;
		return this.leading && !this.inDoubt && this.drained == null && node != null
				&& this.engine.session().isConnected()
				&& node.clientInstance() == this.engine.session().clientInstance();
	}

	synchronized long epoch() {
		return isLeader() ? this.epoch : 0;
	}

	synchronized @Nullable Exception lastFailure() {
		return this.lastFailure;
	}

	synchronized @Nullable LockHandle tenure() {
		if (!isLeader()) {
			return null;
		}
		this.inFlight++;
		return new TenureHandle(this, this.tenure, this.epoch, this.since);
	}

	synchronized CompletableFuture<Long> awaitLeadership() {
		if (isLeader()) {
			return CompletableFuture.completedFuture(this.epoch);
		}
		CompletableFuture<Long> waiter = new CompletableFuture<>();
		this.waiters.add(waiter);
		waiter.whenComplete((epoch, ex) -> {
			synchronized (this) {
				this.waiters.remove(waiter);
			}
		});
		if (!this.joined) {
			join();
		}
		return waiter;
	}

	/** A handle of the given tenure was closed. */
	synchronized void closed(long tenure) {
		if (tenure != this.tenure) {
			return;
		}
		this.inFlight--;
		CompletableFuture<Void> drained = this.drained;
		if (this.inFlight == 0 && drained != null) {
			this.engine.threads().request(() -> drained.complete(null));
		}
	}

	/** The state of a tenure, for its handle. */
	synchronized LockState stateOf(long tenure) {
		if (tenure != this.tenure || !this.leading) {
			return LockState.LOST;
		}
		LockNode node = this.node;
		if (node == null || node.clientInstance() != this.engine.session().clientInstance()) {
			return LockState.LOST;
		}
		return (this.inDoubt || !this.engine.session().isConnected()) ? LockState.IN_DOUBT : LockState.HELD;
	}

	// The connection

	@Override
	public synchronized void suspended() {
		if (!this.leading || this.inDoubt) {
			return;
		}
		if (this.leadership.policy() == ConnectionLossPolicy.SUSPENDED) {
			endTenure();
		}
		else {
			this.inDoubt = true;
		}
	}

	@Override
	public synchronized void lost() {
		// Our node dies with the session, but a server that still keeps the session (a
		// restarted server keeps it one more session timeout; a client may give up on
		// its session first) keeps the node first in the queue until then: it is deleted,
		// as LeaderLatch's reset does. A waiting position finds its node of the old
		// session on resume.
		LockNode node = this.node;
		if (node != null) {
			endTenure();
			this.node = null;
			if (!PlantedLeadershipDefects.lostKeepsOldNode) {
				forget(node);
			}
		}
	}

	/** Delete a node of ours that no tenure follows any more, and its watch. */
	private void forget(LockNode node) {
		this.engine.session().removeWatch(this.nodeWatch, node.path(), Watcher.WatcherType.Data);
		this.engine.session().deleteInBackground(node.path());
	}

	@Override
	public synchronized void reconnected() {
		if (!this.joined) {
			return;
		}
		QueuePosition position = this.position;
		if (position != null) {
			position.resume();
			return;
		}
		LockNode node = this.node;
		if (node == null) {
			queue();
			return;
		}
		if (node.clientInstance() != this.engine.session().clientInstance()) {
			// The session was replaced while we were away: the node goes with it, or
			// now if the server still keeps that session.
			endTenure();
			this.node = null;
			forget(node);
			queue();
			return;
		}
		recheck(node);
	}

	// The queue

	/** Queue with a new node, once the namespace is ready. */
	private void queue() {
		QueuePosition position = new QueuePosition(this.engine, this, this.queuePath, QueueDriver.LATCH,
				this.engine.identity().nodeData("leader of " + this.group), null);
		this.position = position;
		this.engine.threads().request(() -> startWhenReady(position));
	}

	private void startWhenReady(QueuePosition position) {
		synchronized (this) {
			if (this.position != position || !this.joined) {
				return;
			}
			if (this.engine.isClosed()) {
				return;
			}
			if (this.engine.session().isReady()) {
				position.start();
				return;
			}
		}
		this.engine.session().prepareNamespace();
		this.engine.threads().requestAfter(NOT_READY, () -> startWhenReady(position));
	}

	@Override
	public void granted(QueuePosition position, LockNode node) {
		if (position != this.position) {
			this.engine.session().deleteInBackground(node.path());
			return;
		}
		this.position = null;
		this.node = node;
		this.lastFailure = null;
		startTenure();
		watchNode(node);
	}

	@Override
	public void waiting(QueuePosition position) {
	}

	@Override
	public void stalled(QueuePosition position) {
		if (this.engine.session().isConnected()) {
			// The connection came back before this answer did: its event may have been
			// seen already, so do not wait for the next one.
			this.engine.threads().requestAfter(STALL_RETRY, () -> {
				synchronized (this) {
					if (position == this.position && this.joined) {
						position.resume();
					}
				}
			});
		}
		// Otherwise resumed when the connection returns.
	}

	@Override
	public boolean mayRecreate(QueuePosition position) {
		return this.joined && position == this.position;
	}

	@Override
	public void vanished(QueuePosition position) {
		if (position == this.position) {
			this.position = null;
			if (this.joined) {
				queue();
			}
		}
	}

	@Override
	public void failed(QueuePosition position, Exception ex) {
		if (position != this.position) {
			return;
		}
		this.position = null;
		this.lastFailure = ex;
		logger.warn("Could not take part in the election of group '{}': {}; trying again in {}", this.group,
				ex.toString(), RETRY);
		this.engine.threads().requestAfter(RETRY, () -> {
			synchronized (this) {
				if (this.joined && this.position == null && this.node == null) {
					queue();
				}
			}
		});
	}

	/**
	 * Read the queue again with the node we had, after the connection came back within
	 * the session, as {@code LeaderLatch} does: still first, it leads again.
	 */
	private void recheck(LockNode node) {
		try {
			this.engine.client().getChildren().inBackground((client, event) -> {
				synchronized (this) {
					if (this.node != node || !this.joined) {
						return;
					}
					KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
					if (SessionWatch.isConnectionProblem(code)) {
						recheckLater(node);
						return;
					}
					List<String> children = (code == KeeperException.Code.OK) ? event.getChildren() : List.of();
					CreationOrder order = new CreationOrder();
					order.know(nodeName(node), node.czxid());
					order.complete(this.engine.client(), this.queuePath, children, QueueDriver.LATCH.orderedNames(),
							(orderCode, present) -> rechecked(node, order, orderCode, present));
				}
			}).forPath(this.queuePath);
		}
		catch (Exception ex) {
			logger.debug("Could not read the queue of group '{}': {}", this.group, ex.toString());
		}
	}

	/**
	 * A read of the recheck failed for want of a connection: the next reconnection reads
	 * again, unless the connection came back before this answer did (its event may have
	 * been seen already).
	 */
	private void recheckLater(LockNode node) {
		if (!this.engine.session().isConnected()) {
			return;
		}
		this.engine.threads().requestAfter(STALL_RETRY, () -> {
			synchronized (this) {
				if (this.node == node && this.joined && this.engine.session().isConnected()) {
					recheck(node);
				}
			}
		});
	}

	/** The queue was read again, and the creation order of its nodes is known. */
	private void rechecked(LockNode node, CreationOrder order, KeeperException.Code code, List<String> children) {
		synchronized (this) {
			if (this.node != node || !this.joined) {
				return;
			}
			if (SessionWatch.isConnectionProblem(code)) {
				recheckLater(node);
				return;
			}
			QueueDriver.Verdict verdict = (code == KeeperException.Code.OK)
					? QueueDriver.LATCH.decide(children, order.known(), nodeName(node), false) : null;
			if (verdict != null && verdict.holds()) {
				if (!this.engine.session().isConnected()) {
					return;
				}
				if (this.leading) {
					this.inDoubt = false;
				}
				else {
					startTenure();
				}
				watchNode(node);
				return;
			}
			// Gone, or (deleted and made again by another) not first: queue anew.
			dropNode();
			queue();
		}
	}

	private static String nodeName(LockNode node) {
		String path = node.path();
		return path.substring(path.lastIndexOf('/') + 1);
	}

	private void watchNode(LockNode node) {
		try {
			this.engine.client().getData().usingWatcher(this.nodeWatch).inBackground((client, event) -> {
				if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
					nodeGone(node);
				}
			}).forPath(node.path());
		}
		catch (Exception ex) {
			logger.debug("Could not watch the latch node of group '{}': {}", this.group, ex.toString());
		}
	}

	private void nodeChanged(WatchedEvent event) {
		if (event.getType() != Watcher.Event.EventType.NodeDeleted) {
			return;
		}
		LockNode node;
		synchronized (this) {
			node = this.node;
		}
		if (node != null && node.path().equals(event.getPath())) {
			nodeGone(node);
		}
	}

	/** Our leading node was deleted (by hand, or by another client): queue anew. */
	private synchronized void nodeGone(LockNode node) {
		if (this.node != node) {
			return;
		}
		logger.warn("The latch node {} of group '{}' was deleted while it led", node.path(), this.group);
		endTenure();
		this.node = null;
		if (this.joined) {
			queue();
		}
	}

	/**
	 * End the tenure and give up our node (and the position that would make one).
	 * @return completes once the node's delete is confirmed
	 */
	private CompletableFuture<Void> dropNode() {
		QueuePosition position = this.position;
		this.position = null;
		if (position != null) {
			position.abandon();
		}
		LockNode node = this.node;
		this.node = null;
		endTenure();
		if (node == null) {
			return CompletableFuture.completedFuture(null);
		}
		this.engine.session().removeWatch(this.nodeWatch, node.path(), Watcher.WatcherType.Data);
		CompletableFuture<Void> deleted = new CompletableFuture<>();
		this.engine.session().send(() -> {
			try {
				this.engine.client().delete().guaranteed().inBackground((client, event) -> {
					KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
					if (code == KeeperException.Code.OK || code == KeeperException.Code.NONODE
							|| code == KeeperException.Code.SESSIONEXPIRED) {
						deleted.complete(null);
					}
					else {
						deleted.completeExceptionally(KeeperException.create(code, node.path()));
					}
				}).forPath(node.path());
			}
			catch (Exception ex) {
				deleted.completeExceptionally(ex);
			}
		});
		return deleted;
	}

	private void startTenure() {
		this.leading = true;
		this.inDoubt = false;
		this.epoch = this.node.czxid();
		this.since = Instant.now();
		this.tenure++;
		this.inFlight = 0;
		long epoch = this.epoch;
		logger.info("Leading group '{}' (epoch {})", this.group, epoch);
		this.leadership.granted(this.group, epoch);
		List<CompletableFuture<Long>> waiting = new ArrayList<>(this.waiters);
		this.waiters.clear();
		for (CompletableFuture<Long> waiter : waiting) {
			this.engine.threads().complete(() -> waiter.complete(epoch));
		}
	}

	private void endTenure() {
		if (!this.leading) {
			return;
		}
		this.leading = false;
		this.inDoubt = false;
		this.tenure++;
		this.inFlight = 0;
		CompletableFuture<Void> drained = this.drained;
		if (drained != null) {
			// Nothing left to wait for: the tenure is over.
			this.engine.threads().request(() -> drained.complete(null));
		}
		logger.info("No longer leading group '{}' (epoch {})", this.group, this.epoch);
		this.leadership.revoked(this.group, this.epoch);
	}

}
