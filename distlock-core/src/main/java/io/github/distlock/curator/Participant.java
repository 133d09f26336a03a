package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * This client's part in one group's election: Curator's {@code LeaderLatch}, node for
 * node, on the engine. While it waits, a {@link QueuePosition} with the
 * {@linkplain QueueDriver#LATCH latch driver} holds its {@code latch-} node (the
 * predecessor watched, the node made again when its session ended); once that node is
 * first, the participant leads: a {@link Tenure}, a hold of that node which follows its
 * session by the same code as a lock's hold, while the participant watches the node
 * itself. This class is the membership and the node: joining, queueing, the node that led
 * and what happens to it; its {@code Tenure} is whether and how that node leads.
 * <ul>
 * <li>Suspended: by the connection-loss policy the tenure ends at once or is in doubt
 * (not leading for new work, not ended).</li>
 * <li>Reconnected in the same session: the queue is read again, as {@code LeaderLatch}
 * does; the same node still first leads again (an ended tenure starts anew with the same
 * epoch, since no other member can have led meanwhile).</li>
 * <li>Lost (session ended), or the node deleted: the tenure ends, and the participant
 * queues again with a new node; its node of the old session is deleted, as
 * {@code LeaderLatch}'s reset does (a server may keep that session a while longer).</li>
 * </ul>
 * No thread is kept per participant: everything is driven by ZooKeeper's answers and
 * watches and by the connection's events, which the engine's session tells it, as it
 * tells the holds and acquisitions of the same session. State is guarded by this object's
 * monitor, which also guards its position and its tenure.
 */
final class Participant implements QueuePosition.Owner, SessionBound, Tenure.Member, HandOffWatch.Mover {

	private static final Logger logger = LoggerFactory.getLogger(Participant.class);

	/** Pause before starting again after ZooKeeper refused our node. */
	private static final Duration RETRY = Duration.ofSeconds(1);

	/** Pause before a stalled read tries again on a connection that is back. */
	private static final Duration STALL_RETRY = Duration.ofMillis(50);

	/** Pause while the namespace node is made sure of. */
	private static final Duration NOT_READY = Duration.ofMillis(50);

	private final Engine engine;

	private final String group;

	private final LockPath path;

	private final String queuePath;

	private final LeadingNodeWatch nodeWatch;

	// The member id, as its latch nodes' data: what a raw LeaderLatch reads as its id.
	private final byte[] nodeData;

	// Guarded by this.

	private final Tenure tenure;

	private final LatchRecheck recheck;

	private final HandOffWatch handOffs;

	private final ElectionFailures failures;

	private boolean joined;

	private @Nullable QueuePosition position;

	// Our latch node while it leads, or led and may lead again (suspended, in doubt).
	private @Nullable LockNode node;

	Participant(Tenure.Election election, Engine engine, LockPath path) {
		this.engine = engine;
		this.group = path.value();
		this.path = path;
		this.queuePath = QueuePaths.of(LockKind.LEADER, path);
		this.nodeData = election.memberId().getBytes(StandardCharsets.UTF_8);
		this.tenure = new Tenure(this, election, engine, path, this);
		this.recheck = new LatchRecheck(this, engine, this.group, this.queuePath, rechecked());
		this.handOffs = new HandOffWatch(engine, this.queuePath, this);
		this.failures = new ElectionFailures(engine, this.group);
		this.nodeWatch = new LeadingNodeWatch(engine, this.group, this::nodeGone);
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
		this.handOffs.watch();
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
			this.handOffs.unwatch();
			waiting = this.tenure.takeWaiters();
			if (this.tenure.mustDrain()) {
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
		return this.tenure.drain().thenCompose((done) -> {
			synchronized (this) {
				this.tenure.drainDone();
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
		if (!this.joined || !this.tenure.isLeading()) {
			return;
		}
		dropNode();
		queue();
	}

	/**
	 * End the tenure as a hand-off's last step: its calls drain first (no new one
	 * starts), then the node is deleted and the participant queues again at the end.
	 * @return completes once the node's delete is confirmed
	 */
	synchronized CompletableFuture<Void> handOver() {
		if (!this.joined || !this.tenure.isLeading()) {
			return CompletableFuture.failedFuture(new IllegalStateException("Not leading group '" + this.group + "'"));
		}
		if (this.tenure.mustDrain()) {
			return drainThenDrop();
		}
		CompletableFuture<Void> deleted = dropNode();
		queue();
		return deleted;
	}

	@Override
	public synchronized void handOff(HandOffRequest request) {
		QueuePosition position = this.position;
		String node = (position != null) ? position.node() : null;
		if (this.joined && position != null && node != null
				&& request.movesBehind(node.substring(node.lastIndexOf('/') + 1))) {
			logger.info("Queueing again behind '{}' in group '{}', which its leader hands over", request.targetId(),
					this.group);
			position.abandon();
			queue();
		}
	}

	@Override
	public synchronized boolean takesPart() {
		return this.joined;
	}

	/** The name of our latch node while it leads (or led, in doubt), else null. */
	synchronized @Nullable String leadingNode() {
		LockNode node = this.node;
		return (node != null) ? node.path().substring(node.path().lastIndexOf('/') + 1) : null;
	}

	synchronized boolean isJoined() {
		return this.joined;
	}

	synchronized boolean isLeader() {
		return this.tenure.isLeader();
	}

	synchronized long epoch() {
		return this.tenure.isLeader() ? this.tenure.epoch() : 0;
	}

	synchronized @Nullable Exception lastFailure() {
		return this.failures.last();
	}

	synchronized @Nullable LockHandle tenure() {
		return this.tenure.open();
	}

	synchronized CompletableFuture<Long> awaitLeadership() {
		CompletableFuture<Long> waiter = this.tenure.await();
		if (!waiter.isDone() && !this.joined) {
			join();
		}
		return waiter;
	}

	// The connection

	@Override
	public synchronized void suspended() {
		SessionBound tenure = this.tenure.follower();
		if (tenure != null) {
			tenure.suspended();
		}
	}

	@Override
	public synchronized void lost() {
		// A waiting position finds its node of the old session on resume.
		SessionBound tenure = this.tenure.follower();
		if (tenure != null) {
			tenure.lost();
		}
	}

	@Override
	public synchronized void reconnected() {
		if (!this.joined) {
			return;
		}
		this.handOffs.watch();
		QueuePosition position = this.position;
		if (position != null) {
			position.resume();
			return;
		}
		SessionBound tenure = this.tenure.follower();
		if (this.node != null && tenure != null) {
			// Within the session, the queue is read again; in a new one, forgotten.
			tenure.reconnected();
		}
		if (this.node == null) {
			queue();
		}
	}

	@Override
	public void recheck(LockNode node) {
		this.recheck.recheck(node);
	}

	/**
	 * The session of our node ended. The node dies with it, but a server that still keeps
	 * the session (a restarted server keeps it one more session timeout; a client may
	 * give up on its session first) keeps the node first in the queue until then: it is
	 * deleted, as LeaderLatch's reset does, and its watch removed.
	 */
	@Override
	public void forget(LockNode node) {
		if (this.node != node) {
			return;
		}
		this.node = null;
		this.nodeWatch.unwatch(node);
		this.engine.requests().deleteInBackground(node.path());
	}

	// The queue

	/** Queue with a new node, once the namespace is ready. */
	private void queue() {
		QueuePosition position = new QueuePosition(this.engine, this, this.queuePath, QueueDriver.LATCH, this.nodeData,
				null, LoneCheck.OFF);
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
			this.engine.requests().deleteInBackground(node.path());
			return;
		}
		this.position = null;
		this.node = node;
		this.failures.cleared();
		this.tenure.start(node);
		this.nodeWatch.watch(node);
	}

	@Override
	public void waiting(QueuePosition position) {
		this.failures.cleared();
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
		this.failures.failed(ex, RETRY);
		this.engine.threads().requestAfter(RETRY, () -> {
			synchronized (this) {
				if (this.joined && this.position == null && this.node == null) {
					queue();
				}
			}
		});
	}

	private LatchRecheck.Outcome rechecked() {
		return new LatchRecheck.Outcome() {

			@Override
			public boolean follows(LockNode node) {
				return Participant.this.node == node && Participant.this.joined;
			}

			@Override
			public void first(LockNode node) {
				Participant.this.tenure.confirmed(node);
				Participant.this.nodeWatch.watch(node);
			}

			@Override
			public void notFirst(LockNode node) {
				dropNode();
				queue();
			}

		};
	}

	/** Our leading node was deleted (by hand, or by another client): queue anew. */
	private synchronized void nodeGone(LockNode node) {
		if (this.node != node) {
			return;
		}
		logger.warn("The latch node {} of group '{}' was deleted while it led", node.path(), this.group);
		this.tenure.end();
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
		this.tenure.end();
		if (node == null) {
			return CompletableFuture.completedFuture(null);
		}
		this.nodeWatch.unwatch(node);
		return this.engine.requests().deleteConfirmed(node.path());
	}

}
