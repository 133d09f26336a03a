package io.github.distlock.curator;

import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * Our node in one lock queue, from its creation until it holds the lock or is abandoned:
 * the acquisition state machine, driven by ZooKeeper's answers and watches, the same for
 * every protocol (the {@link QueueDriver} says what the queue means).
 * <p>
 * The node is created (protected, ephemeral-sequential, parents as containers, as
 * Curator's recipes do) and the queue read right behind it, without waiting for the
 * create's answer: ZooKeeper answers one session's requests in order, so the read sees
 * the node. Then the driver decides: the node holds, or it watches one node (its
 * predecessor, the first writer) or the whole queue, and the queue is read again when the
 * watch fires. A node that vanished (its session expired) is created anew. Requests that
 * fail for want of a connection leave the position stalled until the connection returns
 * and the owner {@linkplain #resume() resumes} it.
 * <p>
 * All state is guarded by the owning {@link Attempt}'s monitor; callbacks come on
 * ZooKeeper's event thread, Curator's background thread or the caller's thread, and never
 * block.
 */
final class QueuePosition {

	private enum State {

		/** Nothing sent yet. */
		NEW,

		/** Our node is being created; reads may be in flight. */
		CREATING,

		/** Our node exists; we read the queue or wait for a watch. */
		QUEUED,

		/** A request failed for want of a connection: waiting to be resumed. */
		STALLED,

		/** Our node holds the lock: the position's work is done. */
		HOLDS,

		/** Given up: our node is deleted (or will be, once its create is answered). */
		ABANDONED

	}

	// Parents carry no data, as Curator's own parent nodes (not the client's default
	// data).
	private static final byte[] NO_DATA = new byte[0];

	/**
	 * Pause before making missing parents again, when they went missing again at once.
	 */
	private static final java.time.Duration PARENTS_RETRY = java.time.Duration.ofMillis(50);

	private final Attempt owner;

	private final CuratorFramework client;

	private final String queuePath;

	private final QueueDriver driver;

	private final byte[] data;

	// The sequence a downgrading reader sorts at (its write lock's), or null.
	private final @Nullable String sortingSequence;

	private final boolean downgrade;

	private final Watch watch = new Watch(this);

	private State state = State.NEW;

	// Bumped for every node we create, so answers about an older node are ignored.
	private int generation;

	private @Nullable String node;

	private @Nullable String nodeName;

	private long czxid;

	private long session;

	private long clientInstance;

	// A read answered before the create did, without our node in it.
	private boolean earlyRead;

	// How many creates in a row found a parent missing.
	private int parentsMissing;

	/**
	 * Create a position.
	 * @param owner the attempt it belongs to
	 * @param queuePath the queue's node, relative to the client's namespace
	 * @param driver the protocol
	 * @param data the data of our node
	 * @param downgrade the node sequence of the write lock our holder holds in this
	 * queue, for a reader that downgrades, or {@code null}
	 */
	QueuePosition(Attempt owner, String queuePath, QueueDriver driver, byte[] data, @Nullable String downgrade) {
		this.owner = owner;
		this.client = owner.locks().client();
		this.queuePath = queuePath;
		this.driver = driver;
		this.data = data;
		this.sortingSequence = downgrade;
		this.downgrade = downgrade != null;
	}

	/** Create our node and read the queue behind it. */
	void start() {
		synchronized (this.owner) {
			if (this.state != State.NEW) {
				return;
			}
			create();
		}
	}

	/**
	 * Go on after the connection came back: create the node again if it never got
	 * created, and read the queue again (a watch may have fired unseen).
	 */
	void resume() {
		synchronized (this.owner) {
			switch (this.state) {
				case NEW, HOLDS, ABANDONED, CREATING -> {
				}
				case STALLED -> {
					if (this.node == null) {
						create(this.parentsMissing > 0);
					}
					else {
						this.state = State.QUEUED;
						read();
					}
				}
				case QUEUED -> read();
			}
		}
	}

	/**
	 * Give up: delete our node, now or once its create is answered. Does nothing once the
	 * node holds the lock (its hold owns it then).
	 */
	void abandon() {
		synchronized (this.owner) {
			if (this.state == State.HOLDS || this.state == State.ABANDONED) {
				return;
			}
			this.state = State.ABANDONED;
			this.watch.detach();
			// Without a node, either nothing was created, or the create is still to be
			// answered (its answer deletes the node), or it failed (Curator deletes what
			// a
			// failed protected create may have left).
			if (this.node != null) {
				this.owner.locks().deleteInBackground(this.node);
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

	private void create() {
		create(false);
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
		this.earlyRead = false;
		int generation = ++this.generation;
		String path = ZKPaths.makePath(this.queuePath, this.driver.lockName());
		CreateMode mode = CreateMode.EPHEMERAL_SEQUENTIAL;
		if (this.sortingSequence != null) {
			// A downgrading reader takes its write lock's place in the queue, as
			// Curator's
			// read lock does: a writer queued behind that write lock waits for it too.
			path = path + this.sortingSequence;
			mode = CreateMode.EPHEMERAL;
		}
		try {
			if (parentsFirst) {
				createParents();
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
		if (this.sortingSequence == null) {
			read();
		}
	}

	private void createParents() throws Exception {
		// The client's namespace node is a container too (Curator makes it one, once per
		// client): when ZooKeeper has reaped it, nothing but us makes it again.
		String namespace = this.client.getNamespace();
		if (namespace != null && !namespace.isEmpty()) {
			CuratorFramework root = this.client.usingNamespace(null);
			String node = "";
			for (String segment : ZKPaths.split(ZKPaths.makePath("/", namespace))) {
				node = node + "/" + segment;
				root.create().withMode(CreateMode.CONTAINER).inBackground().forPath(node, NO_DATA);
			}
		}
		String parent = "";
		for (String segment : ZKPaths.split(this.queuePath)) {
			parent = parent + "/" + segment;
			// NODEEXISTS is the usual answer; any other problem shows in our own create.
			this.client.create().withMode(CreateMode.CONTAINER).inBackground().forPath(parent, NO_DATA);
		}
	}

	private void created(int generation, CuratorEvent event) {
		synchronized (this.owner) {
			KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
			if (this.state == State.ABANDONED || generation != this.generation) {
				if (code == KeeperException.Code.OK) {
					this.owner.locks().deleteInBackground(event.getName());
				}
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
					this.owner.locks().requestAfter(PARENTS_RETRY, this::resume);
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
			this.clientInstance = this.owner.locks().clientInstance();
			Stat stat = event.getStat();
			if (stat == null) {
				// Found through Curator's protected-mode recovery, without its stat.
				readStat(generation);
				return;
			}
			nodeKnown(stat);
		}
	}

	private void readStat(int generation) {
		try {
			this.client.checkExists().inBackground((client, event) -> {
				synchronized (this.owner) {
					if (this.state != State.CREATING || generation != this.generation) {
						return;
					}
					KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
					if (code == KeeperException.Code.OK && event.getStat() != null) {
						nodeKnown(event.getStat());
					}
					else if (code == KeeperException.Code.OK || code == KeeperException.Code.NONODE) {
						create();
					}
					else {
						problem(code, this.node);
					}
				}
			}).forPath(this.node);
		}
		catch (Exception ex) {
			failed(ex);
		}
	}

	private void nodeKnown(Stat stat) {
		this.czxid = stat.getCzxid();
		this.session = stat.getEphemeralOwner();
		this.state = State.QUEUED;
		if (this.sortingSequence != null) {
			// A downgrading reader holds at once.
			granted();
		}
		else if (this.earlyRead) {
			read();
		}
	}

	private void read() {
		int generation = this.generation;
		boolean afterCreate = this.node != null;
		try {
			if (this.driver.watchesQueue()) {
				this.client.getChildren()
					.usingWatcher(this.watch)
					.inBackground((client, event) -> children(generation, afterCreate, event))
					.forPath(this.queuePath);
			}
			else {
				this.client.getChildren()
					.inBackground((client, event) -> children(generation, afterCreate, event))
					.forPath(this.queuePath);
			}
		}
		catch (Exception ex) {
			failed(ex);
		}
	}

	private void children(int generation, boolean afterCreate, CuratorEvent event) {
		synchronized (this.owner) {
			if (generation != this.generation || (this.state != State.CREATING && this.state != State.QUEUED)) {
				return;
			}
			KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
			List<String> children;
			if (code == KeeperException.Code.OK) {
				children = event.getChildren();
			}
			else if (code == KeeperException.Code.NONODE) {
				// The queue's parent is not there (yet, or any more).
				children = List.of();
			}
			else {
				problem(code, this.queuePath);
				return;
			}
			if (this.state == State.CREATING) {
				this.earlyRead = true;
				return;
			}
			QueueDriver.Verdict verdict = this.driver.decide(children, this.nodeName, this.downgrade);
			if (verdict == null) {
				if (afterCreate) {
					// Our node is gone: its session expired, or somebody deleted it.
					recreate();
				}
				else {
					read();
				}
				return;
			}
			if (verdict.holds()) {
				granted();
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
		try {
			this.client.getData().usingWatcher(this.watch).inBackground((client, event) -> {
				synchronized (this.owner) {
					if (generation != this.generation || this.state != State.QUEUED) {
						return;
					}
					KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
					if (code == KeeperException.Code.NONODE) {
						// Gone before the watch was set: look again.
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
			if (this.state == State.QUEUED && event.getType() != Watcher.Event.EventType.None) {
				read();
			}
		}
	}

	private void granted() {
		if (!this.client.getZookeeperClient().isConnected()) {
			// Not handed out while the connection is down: looked at again once it is
			// back.
			this.state = State.STALLED;
			this.owner.stalled(this);
			return;
		}
		if (this.clientInstance != this.owner.locks().clientInstance()) {
			// Curator replaced the session that owns our node while we waited: the node
			// dies with it, and must not be taken for a lock.
			recreate();
			return;
		}
		this.state = State.HOLDS;
		this.watch.detach();
		this.owner.granted(this, new LockNode(this.node, this.czxid, this.session, this.clientInstance));
	}

	/** Our node is gone, or belongs to a dead session: queue again with a new one. */
	private void recreate() {
		this.owner.locks().deleteInBackground(this.node);
		if (this.owner.mayRecreate(this)) {
			create();
		}
		else {
			this.state = State.ABANDONED;
			this.watch.detach();
			this.node = null;
			this.owner.vanished(this);
		}
	}

	private void problem(KeeperException.Code code, @Nullable String path) {
		switch (code) {
			case CONNECTIONLOSS, SESSIONEXPIRED, SESSIONMOVED, OPERATIONTIMEOUT -> {
				this.state = State.STALLED;
				this.owner.stalled(this);
			}
			default -> failed(KeeperException.create(code, path));
		}
	}

	private void failed(Exception ex) {
		this.state = State.ABANDONED;
		this.watch.detach();
		if (this.node != null) {
			this.owner.locks().deleteInBackground(this.node);
		}
		this.owner.failed(this, ex);
	}

	/**
	 * The watcher of one position. ZooKeeper keeps a watcher until its node changes, also
	 * after the position was abandoned: detaching it lets the position be collected.
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
