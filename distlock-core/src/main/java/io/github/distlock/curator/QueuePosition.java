package io.github.distlock.curator;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockState;

/**
 * Our node in one lock queue, from its creation until it holds the lock or is abandoned:
 * the acquisition state machine, driven by ZooKeeper's answers and watches, the same for
 * every protocol (the {@link QueueDriver} says what the queue means). Its states and
 * transitions are the table in this package's documentation.
 * <p>
 * The node is created (protected, ephemeral-sequential, parents as containers, as
 * Curator's recipes do) and the queue read right behind it, without waiting for the
 * create's answer: ZooKeeper answers one session's requests in order, so the read sees
 * the node. Then the driver decides: the node holds, or it watches one node (its
 * predecessor, the first writer) or the whole queue, and the queue is read again when the
 * watch fires. A node that vanished (its session expired) is created anew, if the owner
 * allows. Requests that fail for want of a connection leave the position stalled until
 * the owner {@linkplain #resume() resumes} it.
 * <p>
 * The node holds only if it is known whole (its creating zxid, the fencing token, and its
 * session) and belongs to the session in use: a node found by Curator's protected-mode
 * recovery is read again for its stat, and a node whose session was replaced is never
 * taken for a lock.
 * <p>
 * All state is guarded by the owner's monitor; callbacks come on ZooKeeper's event
 * thread, Curator's background thread or the caller's thread, and never block. The owner
 * is told of each outcome through {@link Owner}, holding its monitor.
 */
final class QueuePosition {

	/**
	 * What a position tells its owner (an acquisition), holding the owner's monitor. The
	 * owner is also the monitor that guards the position.
	 */
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

	/** A reader's entry into the write lock its holder holds (a downgrade). */
	record Downgrade(Hold write) {

		/** The sequence our node takes: the write node's. */
		String sequence() {
			return this.write.node().sequence();
		}

	}

	enum State {

		/** Nothing sent yet. */
		NEW,

		/** Our node is being created; the queue's read may be in flight. */
		CREATING,

		/**
		 * Our node exists (Curator's protected-mode recovery found it after a lost
		 * connection), but its stat is not known yet: it is read.
		 */
		CONFIRMING,

		/** Our node and its stat are known; we read the queue or wait for a watch. */
		QUEUED,

		/** A request failed for want of a connection: waiting to be resumed. */
		STALLED,

		/** Our node holds the lock: the position's work is done. */
		HOLDS,

		/** Given up: our node is deleted (or will be, once its create is answered). */
		ABANDONED

	}

	// Parents carry no data, as Curator's own parent nodes (not the client's
	// default data).
	private static final byte[] NO_DATA = new byte[0];

	/**
	 * Pause before making missing parents again, when they went missing again at once.
	 */
	private static final Duration PARENTS_RETRY = Duration.ofMillis(50);

	private final Engine engine;

	private final Owner owner;

	private final CuratorFramework client;

	private final String queuePath;

	private final QueueDriver driver;

	private final byte[] data;

	private final @Nullable Downgrade downgrade;

	private final Watch watch = new Watch(this);

	// The creation order of the queue's nodes whose sequence number does not tell it.
	private final CreationOrder order = new CreationOrder();

	// Paths our watcher is registered on, with the kind of watch, until it fires or
	// is removed.
	private final Map<String, Watcher.WatcherType> watched = new LinkedHashMap<>(2);

	private State state = State.NEW;

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

	// How many creates in a row found a parent missing.
	private int parentsMissing;

	/**
	 * Create a position.
	 * @param engine the engine of the client
	 * @param owner the acquisition it belongs to, and the monitor that guards it
	 * @param queuePath the queue's node, relative to the client's namespace
	 * @param driver the protocol
	 * @param data the data of our node
	 * @param downgrade the write lock our holder holds in this queue, for a reader that
	 * downgrades, or {@code null}
	 */
	QueuePosition(Engine engine, Owner owner, String queuePath, QueueDriver driver, byte[] data,
			@Nullable Downgrade downgrade) {
		this.engine = engine;
		this.owner = owner;
		this.client = engine.client();
		this.queuePath = queuePath;
		this.driver = driver;
		this.data = data;
		this.downgrade = downgrade;
	}

	/** Create our node and read the queue behind it. */
	void start() {
		synchronized (this.owner) {
			if (this.state == State.NEW) {
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
			if ((this.state == State.STALLED || this.state == State.QUEUED) && this.node != null
					&& this.clientInstance != this.engine.session().clientInstance()
					&& !PlantedDefects.resumeWithOldSessionNode) {
				// Our node was made in a session that Curator replaced meanwhile. The
				// server may still keep that session (a restarted server keeps it one
				// more session timeout; a client may give up on its session first), and
				// the node with it: watching our predecessor, we would never see it go,
				// and would drop out of the queue silently. It is deleted and made anew.
				vanishedNode();
				return;
			}
			switch (this.state) {
				case STALLED -> {
					if (this.node == null) {
						create(this.parentsMissing > 0);
					}
					else if (this.czxid == 0) {
						this.state = State.CONFIRMING;
						readStat(this.generation);
					}
					else {
						this.state = State.QUEUED;
						read();
					}
				}
				case QUEUED -> read();
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
			if (this.state == State.HOLDS || this.state == State.ABANDONED) {
				return;
			}
			this.state = State.ABANDONED;
			forgetWatches();
			// Without a node, either nothing was created, or the create is still to be
			// answered (its answer deletes the node), or it failed (Curator deletes what
			// a failed protected create may have left).
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

	/** The state, for tests. */
	State state() {
		synchronized (this.owner) {
			return this.state;
		}
	}

	/** The queue this position is in. */
	String queuePath() {
		return this.queuePath;
	}

	/**
	 * Create our node and read the queue behind it, all in one round trip. The queue's
	 * parents are created (as containers, as Curator's recipes create them) only after a
	 * create found them missing, in the same round trip again: Curator's own
	 * creatingParentContainersIfNeeded makes them one synchronous request after the other
	 * on its background thread, which a burst of new keys queues behind.
	 */
	private void create(boolean parentsFirst) {
		this.state = State.CREATING;
		this.node = null;
		this.nodeName = null;
		this.czxid = 0;
		this.session = 0;
		this.earlyRead = false;
		int generation = ++this.generation;
		String path = ZKPaths.makePath(this.queuePath, this.driver.lockName());
		CreateMode mode = CreateMode.EPHEMERAL_SEQUENTIAL;
		if (this.downgrade != null) {
			String writeNode = ZKPaths.getNodeFromPath(this.downgrade.write().node().path());
			if (QueueDriver.isAtCeiling(QueueDriver.sequence(writeNode, QueueDriver.WRITE_NAME))) {
				// The reader's node would keep its write lock's number but not its place:
				// at the ceiling the place is the creation zxid, and a writer queued
				// behind the write lock would come first once it is released.
				failed(new LockAcquisitionException("The read lock of '" + this.downgrade.write().path()
						+ "' cannot be taken inside its write lock (a downgrade): the queue's sequence numbers "
						+ "reached their ceiling (2147483647 child changes of its parent), where a downgraded "
						+ "read node cannot keep the write node's place; release the write lock and take the "
						+ "read lock anew, or let the parent empty so that ZooKeeper reaps it", null));
				return;
			}
			// A downgrading reader takes its write lock's place in the queue, as
			// Curator's read lock does: a writer queued behind that write lock waits for
			// it too.
			path = path + this.downgrade.sequence();
			mode = CreateMode.EPHEMERAL;
		}
		this.instanceAtSend = this.engine.session().clientInstance();
		try {
			if (parentsFirst) {
				createParents(generation);
			}
			this.client.create()
				.withProtection()
				.withMode(mode)
				.inBackground((client, event) -> created(generation, event))
				.forPath(path, this.data);
		}
		catch (Exception ex) {
			failed(ex);
			return;
		}
		if (this.downgrade == null) {
			read();
		}
	}

	private void createParents(int generation) throws Exception {
		// The client's namespace node is a container too (Curator makes it one, once per
		// client): when ZooKeeper has reaped it, nothing but us makes it again.
		String namespace = this.client.getNamespace();
		if (namespace != null && !namespace.isEmpty()) {
			CuratorFramework root = this.client.usingNamespace(null);
			String node = "";
			for (String segment : ZKPaths.split(ZKPaths.makePath("/", namespace))) {
				node = node + "/" + segment;
				root.create()
					.withMode(CreateMode.CONTAINER)
					.inBackground((client, event) -> parentCreated(generation, event, true))
					.forPath(node, NO_DATA);
			}
		}
		String parent = "";
		for (String segment : ZKPaths.split(this.queuePath)) {
			parent = parent + "/" + segment;
			this.client.create()
				.withMode(CreateMode.CONTAINER)
				.inBackground((client, event) -> parentCreated(generation, event, false))
				.forPath(parent, NO_DATA);
		}
	}

	/**
	 * A parent's create was answered: NODEEXISTS is the usual answer, and connection
	 * problems show in our own create. A refusal (no access, a bad ACL) fails the
	 * position with ZooKeeper's answer: creating the node again would be refused again.
	 */
	private void parentCreated(int generation, CuratorEvent event, boolean fullPath) {
		KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
		if (code != KeeperException.Code.NOAUTH && code != KeeperException.Code.INVALIDACL
				&& code != KeeperException.Code.AUTHFAILED) {
			return;
		}
		synchronized (this.owner) {
			if (generation == this.generation && this.state != State.ABANDONED && this.state != State.HOLDS) {
				String path = fullPath ? event.getPath() : this.engine.session().namespaced(event.getPath());
				failed(KeeperException.create(code, path));
			}
		}
	}

	private void created(int generation, CuratorEvent event) {
		synchronized (this.owner) {
			KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
			if (this.state == State.ABANDONED || generation != this.generation) {
				if (code == KeeperException.Code.OK) {
					this.engine.session().deleteInBackground(event.getName());
				}
				return;
			}
			if (code == KeeperException.Code.NONODE && this.downgrade != null) {
				// The queue is gone, and so is the write node that was in it.
				vanishedNode();
				return;
			}
			if (code == KeeperException.Code.NONODE) {
				// A parent is missing (reaped while empty, or never made): make them, at
				// once the first time, after a pause if they went missing again.
				if (this.parentsMissing++ == 0) {
					create(true);
				}
				else {
					this.state = State.STALLED;
					this.engine.threads().requestAfter(PARENTS_RETRY, this::resume);
				}
				return;
			}
			this.parentsMissing = 0;
			if (code != KeeperException.Code.OK) {
				problem(code, event.getPath());
				return;
			}
			this.node = event.getName();
			this.nodeName = ZKPaths.getNodeFromPath(this.node);
			this.clientInstance = this.engine.session().clientInstance();
			Stat stat = event.getStat();
			if (stat == null) {
				// Found by Curator's protected-mode recovery, without its stat.
				this.state = State.CONFIRMING;
				readStat(generation);
				return;
			}
			nodeKnown(stat);
		}
	}

	private void readStat(int generation) {
		String path = this.node;
		try {
			this.client.checkExists().inBackground((client, event) -> {
				synchronized (this.owner) {
					if (this.state != State.CONFIRMING || generation != this.generation) {
						return;
					}
					KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
					if (code == KeeperException.Code.OK && event.getStat() != null) {
						nodeKnown(event.getStat());
					}
					else if (code == KeeperException.Code.OK || code == KeeperException.Code.NONODE) {
						// Gone with its session already.
						vanishedNode();
					}
					else {
						problem(code, path);
					}
				}
			}).forPath(path);
		}
		catch (Exception ex) {
			failed(ex);
		}
	}

	private void nodeKnown(Stat stat) {
		this.czxid = stat.getCzxid();
		this.session = stat.getEphemeralOwner();
		this.order.know(this.nodeName, this.czxid);
		this.state = State.QUEUED;
		if (this.instanceAtSend != this.clientInstance) {
			// Curator sent the create again through a new handle (a new session): the
			// node is not the one asked for in the session this position works in.
			vanishedNode();
			return;
		}
		if (this.downgrade != null) {
			// A downgrading reader holds at once, if it entered its write lock.
			holds();
		}
		else if (this.earlyRead) {
			read();
		}
	}

	private void read() {
		int generation = this.generation;
		try {
			if (this.driver.watchesQueue()) {
				this.watched.put(this.queuePath, Watcher.WatcherType.Children);
				this.client.getChildren()
					.usingWatcher(this.watch)
					.inBackground((client, event) -> children(generation, event))
					.forPath(this.queuePath);
			}
			else {
				this.client.getChildren()
					.inBackground((client, event) -> children(generation, event))
					.forPath(this.queuePath);
			}
		}
		catch (Exception ex) {
			failed(ex);
		}
	}

	private void children(int generation, CuratorEvent event) {
		synchronized (this.owner) {
			if (generation != this.generation || (this.state != State.CREATING && this.state != State.QUEUED)) {
				return;
			}
			if (this.state == State.CREATING) {
				// Answered before the create, or failed: read again once our node
				// is known.
				this.earlyRead = true;
				return;
			}
			KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
			List<String> children;
			if (code == KeeperException.Code.OK) {
				children = event.getChildren();
			}
			else if (code == KeeperException.Code.NONODE) {
				// The queue's parent is not there any more: neither is our node.
				children = List.of();
			}
			else {
				problem(code, this.queuePath);
				return;
			}
			ForeignNodes.check(this.client.getNamespace(), this.queuePath, children, this.driver);
			this.order.complete(this.client, this.queuePath, children, this.driver.orderedNames(),
					(orderCode, present) -> ordered(generation, orderCode, present));
		}
	}

	/**
	 * The queue was read, and the creation order of its nodes is known: decide. Called at
	 * once from {@link #children}, or once the creation zxids of nodes at the ceiling of
	 * sequence numbers are read.
	 */
	private void ordered(int generation, KeeperException.Code code, List<String> children) {
		synchronized (this.owner) {
			if (generation != this.generation || this.state != State.QUEUED) {
				return;
			}
			if (code != KeeperException.Code.OK) {
				problem(code, this.queuePath);
				return;
			}
			QueueDriver.Verdict verdict = this.driver.decide(children, this.order.known(), this.nodeName,
					this.downgrade != null);
			if (verdict == null) {
				// Our node is gone: its session expired, or somebody deleted it.
				vanishedNode();
				return;
			}
			if (verdict.holds()) {
				holds();
				return;
			}
			this.owner.waiting(this);
			if (this.state != State.QUEUED) {
				// The owner gave up (a try-once).
				return;
			}
			if (verdict.watch() != null) {
				watch(generation, ZKPaths.makePath(this.queuePath, verdict.watch()));
			}
			// Otherwise the read set a watch on the queue itself.
		}
	}

	private void watch(int generation, String path) {
		this.watched.put(path, Watcher.WatcherType.Data);
		try {
			this.client.getData().usingWatcher(this.watch).inBackground((client, event) -> {
				synchronized (this.owner) {
					if (generation != this.generation || this.state != State.QUEUED) {
						return;
					}
					KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
					if (code == KeeperException.Code.NONODE) {
						// Gone before the watch was set (no watch is left): look again.
						this.watched.remove(path);
						read();
					}
					else if (code != KeeperException.Code.OK) {
						problem(code, path);
					}
				}
			}).forPath(path);
		}
		catch (Exception ex) {
			failed(ex);
		}
	}

	private void watched(WatchedEvent event) {
		synchronized (this.owner) {
			if (event.getType() == Watcher.Event.EventType.None) {
				return;
			}
			if (event.getPath() != null) {
				// A watch fires once: it is gone from ZooKeeper now.
				this.watched.remove(event.getPath());
			}
			if (this.state == State.QUEUED) {
				read();
			}
		}
	}

	/**
	 * The driver says our node holds: it does if it is ours to hold now, that is the
	 * client is connected and the node belongs to the session in use (and, for a
	 * downgrade, to the session of the write lock it enters, which is still held).
	 */
	private void holds() {
		if (!this.engine.session().isConnected()) {
			// Not handed out while the connection is down: looked at again once it
			// is back.
			this.state = State.STALLED;
			this.owner.stalled(this);
			return;
		}
		if (this.instanceAtSend != this.clientInstance
				|| this.clientInstance != this.engine.session().clientInstance()) {
			// Curator replaced the session that owns our node while we waited: the node
			// dies with it, and must not be taken for a lock.
			vanishedNode();
			return;
		}
		if (this.downgrade != null && !PlantedDefects.downgradeUncheckedAtGrant) {
			Hold write = this.downgrade.write();
			if (this.session != write.node().session() || this.engine.session().stateOf(write) != LockState.HELD) {
				failed(new LockLostException("The write lock '" + write.path() + "' was lost or released before its "
						+ "read lock could be taken (a downgrade): the read lock is not held"));
				return;
			}
		}
		this.state = State.HOLDS;
		forgetWatches();
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
			failed(new LockLostException("The write lock '" + this.downgrade.write().path()
					+ "' was lost with its session before its read lock could be taken (a downgrade): "
					+ "the read lock is not held"));
			return;
		}
		if (this.owner.mayRecreate(this)) {
			create(false);
		}
		else {
			this.state = State.ABANDONED;
			forgetWatches();
			this.node = null;
			this.owner.vanished(this);
		}
	}

	private void problem(KeeperException.Code code, @Nullable String path) {
		if (SessionWatch.isConnectionProblem(code)) {
			this.state = State.STALLED;
			this.owner.stalled(this);
			return;
		}
		failed(KeeperException.create(code, (path != null) ? this.engine.session().namespaced(path) : null));
	}

	private void failed(Exception ex) {
		this.state = State.ABANDONED;
		forgetWatches();
		if (this.node != null) {
			this.engine.session().deleteInBackground(this.node);
		}
		this.owner.failed(this, ex);
	}

	/**
	 * Remove the watches we still have registered (they would stay until their node
	 * changes, and be set again on every reconnection), and let go of the position.
	 */
	private void forgetWatches() {
		this.watch.detach();
		this.watched.forEach((path, type) -> this.engine.session().removeWatch(this.watch, path, type));
		this.watched.clear();
	}

	/**
	 * The watcher of one position. ZooKeeper keeps a watcher until its node changes or it
	 * is removed; detaching it lets the position be collected even before that.
	 */
	private static final class Watch implements Watcher {

		private volatile @Nullable QueuePosition position;

		Watch(QueuePosition position) {
			this.position = position;
		}

		void detach() {
			this.position = null;
		}

		@Override
		public void process(WatchedEvent event) {
			QueuePosition position = this.position;
			if (position != null) {
				position.watched(event);
			}
		}

	}

}
