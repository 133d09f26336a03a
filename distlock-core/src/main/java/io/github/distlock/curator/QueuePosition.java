package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;

import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.WatcherType;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockLostException;

/**
 * Our node in one lock queue until it holds the lock or is abandoned: the acquisition
 * state machine of every protocol (its table: {@link PositionState}).
 */
final class QueuePosition {

	/** What a position tells its owner, holding the owner's monitor (which guards it). */
	interface Owner {

		/** The position's node holds the lock. */
		void granted(QueuePosition position, LockNode node);

		/** The position waits for its lock. */
		void waiting(QueuePosition position);

		/** A request failed for want of a connection: resume the position later. */
		void stalled(QueuePosition position);

		/** Whether a position whose node vanished may queue again with a new node. */
		boolean mayRecreate(QueuePosition position);

		/** The position's node vanished and it may not queue again by itself. */
		void vanished(QueuePosition position);

		/** The position failed for good. */
		void failed(QueuePosition position, Exception ex);

	}

	private final Engine engine;

	private final Requests requests;

	private final Owner owner;

	private final String queuePath;

	private final QueueDriver driver;

	private final byte[] data;

	private final @Nullable Downgrade downgrade;

	// Whether the create's number may prove our node alone, without a read.
	private final LoneCheck lone;

	// Made by the first read: a node granted by its create's answer needs neither.
	private @Nullable Watches watches;

	private @Nullable CreationOrder order;

	private final PositionNode our = new PositionNode();

	private PositionState state = PositionState.NEW;

	// Bumped for every node we create, so answers about an older node are ignored.
	private int generation;

	/** A position guarded by its owner's monitor; a downgrade's, if one is given. */
	QueuePosition(Engine engine, Owner owner, String queuePath, QueueDriver driver, byte[] data,
			@Nullable Downgrade downgrade, LoneCheck lone) {
		this.engine = engine;
		this.requests = engine.requests();
		this.owner = owner;
		this.queuePath = queuePath;
		this.driver = driver;
		this.data = data;
		this.downgrade = downgrade;
		this.lone = lone;
	}

	/** Create our node and read the queue behind it. */
	void start() {
		synchronized (this.owner) {
			if (this.state == PositionState.NEW) {
				create(false);
			}
		}
	}

	/** Connected again: send what failed, read again (a watch may have fired). */
	void resume() {
		synchronized (this.owner) {
			if ((this.state == PositionState.STALLED || this.state == PositionState.QUEUED)
					&& this.our.isOfOtherHandle(this.engine.session().clientInstance())) {
				// A replaced session's node may outlive it a while: deleted, made anew.
				vanishedNode();
				return;
			}
			switch (this.state) {
				case STALLED -> {
					if (this.our.path() == null && this.our.answerLost()) {
						// Its create's answer was lost: made again once connected.
						if (this.engine.session().isConnected()) {
							queueAgain();
						}
					}
					else if (this.our.path() == null) {
						create(this.our.parentsMissing());
					}
					else if (!this.our.isKnown()) {
						confirm();
					}
					else {
						this.state = PositionState.QUEUED;
						read();
					}
				}
				case QUEUED -> read();
				default -> {
				}
			}
		}
	}

	/** Give up, unless the node holds (its hold owns it then). */
	void abandon() {
		synchronized (this.owner) {
			if (this.state != PositionState.HOLDS && this.state != PositionState.ABANDONED) {
				// A create still to be answered deletes its node then.
				end();
			}
		}
	}

	/** Our node's full path, once created. */
	@Nullable String node() {
		synchronized (this.owner) {
			return this.our.path();
		}
	}

	// Our node's create (after the parents' once a create found them missing), and the
	// queue's read behind it: ZooKeeper answers one session's requests in order.
	private void create(boolean parentsFirst) {
		this.state = PositionState.CREATING;
		long instance = this.engine.session().clientInstance();
		this.our.sent(instance);
		int generation = ++this.generation;
		LockAcquisitionException refusal = (this.downgrade != null) ? this.downgrade.refusal() : null;
		if (refusal != null) {
			failed(refusal);
			return;
		}
		String name = (this.downgrade != null) ? this.downgrade.nodeName(this.driver.lockName())
				: this.driver.lockName();
		CreateMode mode = (this.downgrade != null) ? CreateMode.EPHEMERAL : CreateMode.EPHEMERAL_SEQUENTIAL;
		boolean proving = this.lone.mayProve(parentsFirst, instance);
		boolean sent = this.requests.trySend(() -> {
			if (parentsFirst) {
				this.requests.createParents(this.queuePath, (refused) -> {
					synchronized (this.owner) {
						if (creating(generation)) {
							failed(refused);
						}
					}
				});
			}
			this.requests.create(ZKPaths.makePath(this.queuePath, name), this.data, mode,
					(event) -> created(generation, event));
		}, this::failed);
		if (sent && this.downgrade == null && !proving) {
			this.lone.beforeRead(instance);
			read();
		}
	}

	private void created(int generation, CuratorEvent event) {
		synchronized (this.owner) {
			KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
			if (!creating(generation)) {
				// An older node, or the position was given up: nobody will hold it.
				if (code == KeeperException.Code.OK) {
					this.requests.deleteInBackground(event.getName());
				}
				return;
			}
			if (code == KeeperException.Code.NONODE) {
				// A parent is missing (reaped while empty, or never made).
				boolean again = this.our.parentsMissingAgain();
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
					this.engine.threads().requestAfter(Duration.ofMillis(50), this::resume);
				}
				return;
			}
			this.our.answered(code);
			if (code != KeeperException.Code.OK) {
				problem(code, event.getPath());
				return;
			}
			this.our.created(event.getName(), this.engine.session().clientInstance());
			if (event.getStat() == null) {
				// Found by Curator's protected-mode recovery, without its stat.
				this.our.readEarly(this.lone.drop());
				confirm();
				return;
			}
			nodeKnown(event.getStat());
		}
	}

	private void confirm() {
		this.state = PositionState.CONFIRMING;
		int generation = this.generation;
		String path = this.our.path();
		this.requests.trySend(() -> this.requests.stat(path, null, (event) -> {
			synchronized (this.owner) {
				if (this.state != PositionState.CONFIRMING || generation != this.generation) {
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
		}), this::failed);
	}

	private void nodeKnown(Stat stat) {
		// No read went with the create: the number proves the node alone, or read now.
		boolean unread = this.lone.pending();
		this.our.known(stat);
		this.state = PositionState.QUEUED;
		if (!this.our.isOfSend()) {
			// Curator sent the create again through a new handle: another session's node.
			vanishedNode();
		}
		else if (this.downgrade != null || (unread && this.lone.proves(this.our.name(), this.our.clientInstance()))) {
			// A downgrade holds at once (if it entered its write lock), as does a node
			// proved alone by its number.
			holds();
		}
		else if (unread || this.our.wasReadEarly()) {
			read();
		}
	}

	// The queue's children (watched as a whole for a lease), then the driver decides.
	private void read() {
		int generation = this.generation;
		if (this.watches == null) {
			this.watches = new Watches(this::watched);
			this.order = new CreationOrder();
		}
		Watcher watcher = this.driver.watchesQueue() ? this.watches.on(this.queuePath, WatcherType.Children) : null;
		this.requests.trySend(
				() -> this.requests.children(this.queuePath, watcher, (event) -> children(generation, event)),
				this::failed);
	}

	private void children(int generation, CuratorEvent event) {
		synchronized (this.owner) {
			if (generation == this.generation && this.state == PositionState.CREATING) {
				// Answered before the create, or failed: read again once it is known.
				this.our.readEarly(true);
				return;
			}
			if (!queued(generation)) {
				return;
			}
			KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
			if (code != KeeperException.Code.OK && code != KeeperException.Code.NONODE) {
				problem(code, this.queuePath);
				return;
			}
			// NONODE: the queue's parent is not there any more, and neither is our node.
			List<String> children = (code == KeeperException.Code.OK) ? event.getChildren() : List.of();
			ForeignNodes.check(this.engine.client().getNamespace(), this.queuePath, children, this.driver);
			this.order.know(this.our.name(), this.our.czxid());
			this.order.complete(this.requests, this.queuePath, children, this.driver.orderedNames(),
					(orderCode, present) -> {
						synchronized (this.owner) {
							if (queued(generation) && orderCode != KeeperException.Code.OK) {
								problem(orderCode, this.queuePath);
							}
							else if (queued(generation)) {
								decide(present);
							}
						}
					});
		}
	}

	private void decide(List<String> children) {
		QueueDriver.Verdict verdict = this.driver.decide(children, this.order.known(), this.our.name(),
				this.downgrade != null);
		if (verdict == null) {
			// Our node is gone: its session expired, or somebody deleted it.
			vanishedNode();
			return;
		}
		if (verdict.holds()) {
			this.lone.found(children, this.our.name(), this.our.clientInstance());
			holds();
			return;
		}
		this.owner.waiting(this);
		if (this.state == PositionState.QUEUED && verdict.watch() != null) {
			// Else the owner gave up (a try-once), or the read watches the queue itself.
			watch(verdict.watch());
		}
	}

	/** Watch one node of the queue (a waiter's predecessor, or the first writer). */
	private void watch(String name) {
		int generation = this.generation;
		String path = ZKPaths.makePath(this.queuePath, name);
		this.requests.trySend(() -> this.requests.data(path, this.watches.on(path, WatcherType.Data), (event) -> {
			synchronized (this.owner) {
				if (!queued(generation)) {
					return;
				}
				KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
				if (code == KeeperException.Code.NONODE) {
					// Gone before the watch was set (no watch is left): look again.
					this.watches.gone(path);
					read();
				}
				else if (code != KeeperException.Code.OK) {
					problem(code, path);
				}
			}
		}), this::failed);
	}

	private void watched(WatchedEvent event) {
		synchronized (this.owner) {
			this.watches.gone(event.getPath());
			if (this.state == PositionState.QUEUED) {
				read();
			}
		}
	}

	/** The driver says our node holds: it does if connected, of the session in use. */
	private void holds() {
		if (!this.engine.session().isConnected()) {
			// Not handed out without a connection: looked at again once it is back.
			this.state = PositionState.STALLED;
			this.owner.stalled(this);
			return;
		}
		if (!this.our.isOfSend() || !this.our.isOf(this.engine.session().clientInstance())) {
			// Curator replaced our node's session while we waited: it dies with it.
			vanishedNode();
			return;
		}
		LockLostException lost = (this.downgrade != null) ? this.downgrade.lostAtGrant(this.our.session()) : null;
		if (lost != null) {
			failed(lost);
			return;
		}
		this.state = PositionState.HOLDS;
		if (this.watches != null) {
			this.watches.forget(this.requests);
		}
		this.owner.granted(this, this.our.lockNode());
	}

	/** Our node is gone, or of a dead session (a downgrade's write lock went with it). */
	private void vanishedNode() {
		if (this.our.path() != null) {
			this.requests.deleteInBackground(this.our.path());
		}
		if (this.downgrade != null) {
			failed(this.downgrade.lostWithSession());
			return;
		}
		queueAgain();
	}

	private void queueAgain() {
		if (this.owner.mayRecreate(this)) {
			create(false);
		}
		else {
			this.our.forget();
			end();
			this.owner.vanished(this);
		}
	}

	private void problem(KeeperException.Code code, @Nullable String path) {
		if (Requests.isConnectionProblem(code)) {
			this.state = PositionState.STALLED;
			this.owner.stalled(this);
			return;
		}
		failed(KeeperException.create(code, (path != null) ? this.engine.session().namespaced(path) : null));
	}

	private void failed(Exception ex) {
		end();
		this.owner.failed(this, ex);
	}

	private void end() {
		this.state = PositionState.ABANDONED;
		if (this.watches != null) {
			this.watches.forget(this.requests);
		}
		if (this.our.path() != null) {
			this.requests.deleteInBackground(this.our.path());
		}
	}

	private boolean creating(int generation) {
		return generation == this.generation && this.state != PositionState.ABANDONED
				&& this.state != PositionState.HOLDS;
	}

	private boolean queued(int generation) {
		return generation == this.generation && this.state == PositionState.QUEUED;
	}

}
