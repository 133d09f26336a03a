package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockLostException;

/**
 * Our node in one lock queue, from its creation until it holds the lock or is abandoned:
 * the acquisition state machine of every protocol ({@link QueueDriver} says what the
 * queue means; its states and transitions: {@link PositionState}). {@link NodeCreation}
 * makes the node (protected, as Curator's recipes do) and {@link QueueReading} reads the
 * queue right behind it, without waiting for the create's answer (ZooKeeper answers one
 * session's requests in order); both answer through the interfaces this class implements.
 * A node that vanished is made anew if the owner allows; a position stalled for want of a
 * connection waits until the owner {@linkplain #resume() resumes} it.
 * <p>
 * The node holds only if it is known whole (its creating zxid, the fencing token, and its
 * session) and belongs to the session in use: a node found by Curator's protected-mode
 * recovery is read again for its stat, and a node whose session was replaced is never
 * taken for a lock.
 * <p>
 * All state, the helpers' included, is guarded by the owner's monitor: the helpers are
 * called holding it, and take it in their callbacks (on ZooKeeper's event thread,
 * Curator's background thread or the caller's; they never block) before they answer. The
 * owner is told of each outcome through {@link Owner}, holding its monitor.
 */
final class QueuePosition implements NodeCreation.Creator, QueueReading.Reader {

	/** What a position tells its owner, holding the owner's monitor (which guards it). */
	interface Owner {

		/** The position's node holds the lock. */
		void granted(QueuePosition position, LockNode node);

		/** The position waits for its lock. */
		void waiting(QueuePosition position);

		/** A request failed for want of a connection: resume the position later. */
		void stalled(QueuePosition position);

		/**
		 * Whether a position whose node vanished (its session ended) may queue again with
		 * a new node by itself; if not, it is abandoned and {@link #vanished} is called.
		 */
		boolean mayRecreate(QueuePosition position);

		/** The position's node vanished and it may not queue again by itself. */
		void vanished(QueuePosition position);

		/** The position failed for good. */
		void failed(QueuePosition position, Exception ex);

	}

	/** Pause before making parents again that went missing again at once. */
	private static final Duration PARENTS_RETRY = Duration.ofMillis(50);

	private final Engine engine;

	private final Owner owner;

	private final String queuePath;

	private final QueueDriver driver;

	private final @Nullable Downgrade downgrade;

	// Whether the create's number may prove our node alone, without a read.
	private final LoneCheck lone;

	private final NodeCreation creation;

	private final QueueReading reading;

	private PositionState state = PositionState.NEW;

	// Bumped for every node we create, so answers about an older node are ignored.
	private int generation;

	private @Nullable String node;

	private @Nullable String nodeName;

	// Known only with the node's stat (state QUEUED and later).
	private long czxid;

	private long session;

	// Curator's handle index when our node's create was sent and when it was answered;
	// the node belongs to that handle's session only if both are the same.
	private long instanceAtSend;

	private long clientInstance;

	// A read answered before the create did: read again once the node is known.
	private boolean earlyRead;

	/**
	 * Create a position.
	 * @param engine the engine of the client
	 * @param owner the acquisition it belongs to, and the monitor that guards it
	 * @param queuePath the queue's node, relative to the client's namespace
	 * @param driver the protocol
	 * @param data the data of our node
	 * @param downgrade the write lock our holder holds in this queue, for a reader that
	 * downgrades, or {@code null}
	 * @param lone how our node's number may prove it alone without a read, or
	 * {@link LoneCheck#OFF}
	 */
	QueuePosition(Engine engine, Owner owner, String queuePath, QueueDriver driver, byte[] data,
			@Nullable Downgrade downgrade, LoneCheck lone) {
		this.lone = lone;
		this.engine = engine;
		this.owner = owner;
		this.queuePath = queuePath;
		this.driver = driver;
		this.downgrade = downgrade;
		this.creation = new NodeCreation(engine, owner, queuePath, data, this);
		this.reading = new QueueReading(engine, owner, queuePath, driver, this);
	}

	/** Create our node and read the queue behind it. */
	void start() {
		synchronized (this.owner) {
			if (this.state == PositionState.NEW) {
				create(false);
			}
		}
	}

	/**
	 * Go on after the connection came back: send again what failed for want of it, and
	 * read the queue again (a watch may have fired unseen).
	 */
	void resume() {
		synchronized (this.owner) {
			if ((this.state == PositionState.STALLED || this.state == PositionState.QUEUED) && this.node != null
					&& this.clientInstance != this.engine.session().clientInstance()) {
				// Our node's session was replaced. The server may still keep it (a
				// restarted server does, one session timeout), and the node with it: we
				// would wait for a predecessor we never see go. Deleted and made anew.
				vanishedNode();
				return;
			}
			switch (this.state) {
				case STALLED -> {
					if (this.node == null && this.creation.answerLost()) {
						// Its create's answer was lost: made again, if the owner
						// allows, once connected (the return resumes it again).
						if (this.engine.session().isConnected()) {
							queueAgain();
						}
					}
					else if (this.node == null) {
						create(this.creation.parentsMissing());
					}
					else if (this.czxid == 0) {
						this.state = PositionState.CONFIRMING;
						this.creation.confirm(this.generation, this.node);
					}
					else {
						this.state = PositionState.QUEUED;
						this.reading.read(this.generation);
					}
				}
				case QUEUED -> this.reading.read(this.generation);
				default -> {
				}
			}
		}
	}

	/**
	 * Give up: delete our node, now or once its create is answered, and remove our
	 * watches. Does nothing once the node holds the lock (its hold owns it then).
	 */
	void abandon() {
		synchronized (this.owner) {
			if (this.state == PositionState.HOLDS || this.state == PositionState.ABANDONED) {
				return;
			}
			this.state = PositionState.ABANDONED;
			this.reading.forgetWatches();
			// Without a node: nothing created, or a create still to be answered (which
			// deletes it), or one that failed (Curator cleans up after it).
			if (this.node != null) {
				this.engine.session().deleteInBackground(this.node);
			}
		}
	}

	/** Our node's full path, once created. */
	@Nullable String node() {
		synchronized (this.owner) {
			return this.node;
		}
	}

	/** The queue this position is in. */
	String queuePath() {
		return this.queuePath;
	}

	/**
	 * Create our node and read the queue behind it, all in one round trip: ZooKeeper
	 * answers one session's requests in order, so the read sees the node.
	 */
	private void create(boolean parentsFirst) {
		this.state = PositionState.CREATING;
		this.node = null;
		this.nodeName = null;
		this.czxid = 0;
		this.session = 0;
		this.earlyRead = false;
		int generation = ++this.generation;
		String name = this.driver.lockName();
		if (this.downgrade != null) {
			LockAcquisitionException refusal = this.downgrade.refusal();
			if (refusal != null) {
				failed(refusal);
				return;
			}
			name = this.downgrade.nodeName(name);
		}
		CreateMode mode = (this.downgrade != null) ? CreateMode.EPHEMERAL : CreateMode.EPHEMERAL_SEQUENTIAL;
		this.instanceAtSend = this.engine.session().clientInstance();
		boolean proving = this.lone.mayProve(parentsFirst, this.instanceAtSend);
		if (this.creation.create(generation, name, mode, parentsFirst) && this.downgrade == null && !proving) {
			this.lone.beforeRead(this.instanceAtSend);
			this.reading.read(generation);
		}
	}

	private void nodeKnown(Stat stat) {
		this.czxid = stat.getCzxid();
		this.session = stat.getEphemeralOwner();
		this.reading.know(this.nodeName, this.czxid);
		this.state = PositionState.QUEUED;
		if (this.instanceAtSend != this.clientInstance) {
			// Curator sent the create again through a new handle: another session's node.
			vanishedNode();
			return;
		}
		if (this.downgrade != null) {
			// A downgrading reader holds at once, if it entered its write lock.
			holds();
		}
		else if (this.lone.pending()) {
			// No read was sent: the node's number proves it alone, or the queue is read.
			if (this.lone.proves(this.nodeName, this.clientInstance)) {
				holds();
			}
			else {
				this.reading.read(this.generation);
			}
		}
		else if (this.earlyRead) {
			this.reading.read(this.generation);
		}
	}

	/**
	 * The driver says our node holds: it does if it is ours to hold now, that is the
	 * client is connected and the node belongs to the session in use (and, for a
	 * downgrade, to the session of the write lock it enters, which is still held).
	 */
	private void holds() {
		if (!this.engine.session().isConnected()) {
			// Not handed out without a connection: looked at again once it is back.
			this.state = PositionState.STALLED;
			this.owner.stalled(this);
			return;
		}
		if (this.instanceAtSend != this.clientInstance
				|| this.clientInstance != this.engine.session().clientInstance()) {
			// Curator replaced our node's session while we waited: it dies with it.
			vanishedNode();
			return;
		}
		if (this.downgrade != null) {
			LockLostException lost = this.downgrade.lostAtGrant(this.session);
			if (lost != null) {
				failed(lost);
				return;
			}
		}
		this.state = PositionState.HOLDS;
		this.reading.forgetWatches();
		this.owner.granted(this, new LockNode(this.node, this.czxid, this.session, this.clientInstance));
	}

	/**
	 * Our node is gone, or belongs to a dead session: queue again with a new one, if the
	 * owner allows (a downgrade never does: its write lock is gone with the session).
	 */
	private void vanishedNode() {
		if (this.node != null) {
			this.engine.session().deleteInBackground(this.node);
		}
		if (this.downgrade != null) {
			failed(this.downgrade.lostWithSession());
			return;
		}
		queueAgain();
	}

	/** Queue with a new node, if the owner allows; else give up and tell it. */
	private void queueAgain() {
		if (this.owner.mayRecreate(this)) {
			create(false);
		}
		else {
			this.state = PositionState.ABANDONED;
			this.reading.forgetWatches();
			this.node = null;
			this.owner.vanished(this);
		}
	}

	@Override
	public void problem(KeeperException.Code code, @Nullable String path) {
		if (Session.isConnectionProblem(code)) {
			this.state = PositionState.STALLED;
			this.owner.stalled(this);
			return;
		}
		failed(KeeperException.create(code, (path != null) ? this.engine.session().namespaced(path) : null));
	}

	@Override
	public void failed(Exception ex) {
		this.state = PositionState.ABANDONED;
		this.reading.forgetWatches();
		if (this.node != null) {
			this.engine.session().deleteInBackground(this.node);
		}
		this.owner.failed(this, ex);
	}

	// The answers of its creation and its reading, holding the owner's monitor; one
	// about an older node, or after the position moved on, is ignored.

	@Override
	public boolean creating(int generation) {
		return generation == this.generation && this.state != PositionState.ABANDONED
				&& this.state != PositionState.HOLDS;
	}

	@Override
	public void parentsMissing(boolean again) {
		if (this.downgrade != null) {
			// The queue is gone, and so is the write node that was in it.
			vanishedNode();
		}
		else if (!again) {
			create(true);
		}
		else {
			// They went missing again at once: made again after a pause.
			this.state = PositionState.STALLED;
			this.engine.threads().requestAfter(PARENTS_RETRY, this::resume);
		}
	}

	@Override
	public void created(String node, @Nullable Stat stat) {
		this.node = node;
		this.nodeName = ZKPaths.getNodeFromPath(node);
		this.clientInstance = this.engine.session().clientInstance();
		if (stat == null) {
			// Found by Curator's protected-mode recovery, without its stat.
			this.state = PositionState.CONFIRMING;
			this.earlyRead |= this.lone.drop();
			this.creation.confirm(this.generation, node);
			return;
		}
		nodeKnown(stat);
	}

	@Override
	public boolean confirming(int generation) {
		return this.state == PositionState.CONFIRMING && generation == this.generation;
	}

	@Override
	public void confirmed(@Nullable Stat stat) {
		if (stat != null) {
			nodeKnown(stat);
		}
		else {
			vanishedNode();
		}
	}

	@Override
	public int generation() {
		return this.generation;
	}

	@Override
	public boolean readAnswered(int generation) {
		if (generation == this.generation && this.state == PositionState.CREATING) {
			// Answered before the create, or failed: read again once our node is known.
			this.earlyRead = true;
			return false;
		}
		return queued(generation);
	}

	@Override
	public boolean queued(int generation) {
		return generation == this.generation && this.state == PositionState.QUEUED;
	}

	@Override
	public void decide(int generation, List<String> children, Map<String, Long> order) {
		QueueDriver.Verdict verdict = this.driver.decide(children, order, this.nodeName, this.downgrade != null);
		if (verdict == null) {
			// Our node is gone: its session expired, or somebody deleted it.
			vanishedNode();
			return;
		}
		if (verdict.holds()) {
			this.lone.found(children, this.nodeName, this.clientInstance);
			holds();
			return;
		}
		this.owner.waiting(this);
		if (this.state != PositionState.QUEUED) {
			// The owner gave up (a try-once).
			return;
		}
		if (verdict.watch() != null) {
			this.reading.watch(generation, verdict.watch());
		}
		// Otherwise the read set a watch on the queue itself.
	}

}
