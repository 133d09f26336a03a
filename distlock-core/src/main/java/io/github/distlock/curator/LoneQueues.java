package io.github.distlock.curator;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;

/**
 * The mutex queues of this client where its last node was known to be the queue's only
 * child, and what lets the answer of the next create prove the new node alone without
 * reading the queue (the rule and what it relies on: docs/failure-model.md, invariant 8).
 * <p>
 * ZooKeeper numbers a parent's sequential children from a counter that every child create
 * advances by one (deletes do not). Our node {@code P} was the only child when a read (or
 * this rule) last saw the queue; its delete was answered; our next node {@code Q} comes
 * back numbered {@code seq(P) + 1}: nobody created a child in between, so no other node
 * can be there. That holds only for one and the same parent node: a container parent
 * reaped once empty and made again restarts its counter at zero. So each queue that takes
 * part has a one-shot data watch on its parent, set with {@code exists} before the read
 * that may find our node alone (a data watch is not triggered by the children's creates
 * and deletes, so it stays set from one lock cycle to the next): the parent's delete or
 * any change of its data fires it, and so does any change of the connection (ZooKeeper
 * tells every watcher of a disconnection, a reconnection or the session's end). The
 * watch's events, the answers of the reads, the deletes and the creates all come in order
 * on the ZooKeeper handle's one event thread (Curator calls background callbacks without
 * an executor there, and its watchers too), and ZooKeeper sends a session's watch event
 * before the answers of its later requests: so when the create's answer comes, any event
 * that undoes the proof was handled before it.
 * <p>
 * A queue takes part from its second acquisition by this client on (the first costs no
 * request more), and while its state is kept: at most {@value #CAPACITY} queues, the
 * least recently used dropped first (its watch removed). Everything is guarded by this
 * object's monitor, taken after the acquisition's (never the other way round).
 */
final class LoneQueues {

	/** How many queues' states are kept at most. */
	static final int CAPACITY = 4096;

	private final CuratorFramework client;

	private final Session session;

	private final Map<String, Queue> queues = new LinkedHashMap<>(64, 0.75f, true);

	private boolean closed;

	LoneQueues(CuratorFramework client, Session session) {
		this.client = client;
		this.session = session;
	}

	/**
	 * Before our node's create in a mutex queue: what its answer may prove, or
	 * {@code null} if nothing (the queue is read then, as always).
	 * @param queuePath the queue's path
	 * @param instance Curator's handle index the create is sent with
	 * @return the proof to check against the create's answer, or {@code null}
	 */
	synchronized @Nullable Proof before(String queuePath, long instance) {
		Queue queue = this.queues.get(queuePath);
		if (queue == null || !queue.isArmed(instance) || queue.alone == null) {
			return null;
		}
		int sequence = QueueDriver.sequence(queue.alone, QueueDriver.LOCK_NAME);
		if (QueueDriver.isAtCeiling(sequence) || QueueDriver.isAtCeiling(sequence + 1)) {
			return null;
		}
		return new Proof(queue, queue.epoch, sequence + 1);
	}

	/**
	 * The create of our node was answered: whether its number proves it the queue's only
	 * node. If it does, the node is the one known alone from now on.
	 * @param proof what {@link #before} returned
	 * @param nodeName the node's name
	 * @param instance Curator's handle index the create was sent and answered with
	 */
	synchronized boolean proves(Proof proof, String nodeName, long instance) {
		Queue queue = proof.queue;
		if (this.queues.get(queue.path) != queue || queue.epoch != proof.epoch || !queue.isArmed(instance)
				|| !queue.aloneDeleted) {
			return false;
		}
		if (!QueueDriver.isNode(nodeName, QueueDriver.LOCK_NAME)
				|| QueueDriver.sequence(nodeName, QueueDriver.LOCK_NAME) != proof.sequence) {
			return false;
		}
		queue.alone(nodeName);
		return true;
	}

	/**
	 * Before the read of a mutex queue whose create was just sent: set the parent's watch
	 * if the queue takes part and has none set in this session.
	 * @param queuePath the queue's path
	 * @param instance Curator's handle index the requests are sent with
	 */
	void watchParent(String queuePath, long instance) {
		Queue queue;
		ParentWatch watch;
		synchronized (this) {
			if (this.closed) {
				return;
			}
			queue = this.queues.get(queuePath);
			if (queue == null) {
				// Its first acquisition: only noted.
				this.queues.put(queuePath, new Queue(queuePath));
				evictBeyondCapacity();
				return;
			}
			if (queue.watch != null && queue.instance == instance) {
				return;
			}
			watch = new ParentWatch(this, queue);
			queue.watch = watch;
			queue.armed = false;
			queue.instance = instance;
			queue.forget();
		}
		try {
			this.client.checkExists()
				.usingWatcher(watch)
				.inBackground((client, event) -> answered(queue, watch, instance, event))
				.forPath(queuePath);
		}
		catch (Exception ex) {
			synchronized (this) {
				if (queue.watch == watch) {
					queue.watch = null;
				}
			}
		}
	}

	/**
	 * A read (or this rule) found our node the queue's only child, on the given handle.
	 * It counts only if the parent's watch was set before, on that handle, and has not
	 * fired.
	 */
	synchronized void alone(String queuePath, String nodeName, long instance) {
		Queue queue = this.queues.get(queuePath);
		if (queue != null && queue.isArmed(instance)) {
			queue.alone(nodeName);
		}
	}

	/** The delete of one of our mutex nodes was answered: it is gone. */
	synchronized void deleted(String nodePath) {
		int slash = nodePath.lastIndexOf('/');
		if (slash <= 0) {
			return;
		}
		Queue queue = this.queues.get(nodePath.substring(0, slash));
		if (queue != null && queue.alone != null && queue.alone.equals(nodePath.substring(slash + 1))) {
			queue.aloneDeleted = true;
		}
	}

	/** The locks are closed: remove every watch, and keep nothing. */
	void close() {
		List<Queue> watched = new ArrayList<>();
		synchronized (this) {
			this.closed = true;
			for (Queue queue : this.queues.values()) {
				if (queue.watch != null) {
					watched.add(queue);
				}
			}
			this.queues.clear();
		}
		watched.forEach(this::removeWatch);
	}

	/** How many queues' states are kept, and how many of them have a watch set. */
	synchronized int[] size() {
		int watched = 0;
		for (Queue queue : this.queues.values()) {
			if (queue.watch != null) {
				watched++;
			}
		}
		return new int[] { this.queues.size(), watched };
	}

	private void answered(Queue queue, ParentWatch watch, long instance, CuratorEvent event) {
		boolean remove = false;
		synchronized (this) {
			if (queue.watch != watch) {
				return;
			}
			KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
			if (code == KeeperException.Code.OK && event.getStat() != null && this.session.clientInstance() == instance
					&& !this.closed) {
				queue.armed = true;
			}
			else {
				// Not set on the parent (missing: the watch waits for its creation), or
				// through another handle, or the locks were closed meanwhile.
				queue.watch = null;
				remove = code == KeeperException.Code.OK || code == KeeperException.Code.NONODE;
			}
		}
		if (remove) {
			this.session.removeWatch(watch, queue.path, Watcher.WatcherType.Data);
		}
	}

	private void fired(Queue queue, ParentWatch watch, WatchedEvent event) {
		boolean remove;
		synchronized (this) {
			if (queue.watch != watch
					|| PlantedDefects.parentWatchIgnored && event.getType() != Watcher.Event.EventType.None) {
				return;
			}
			queue.watch = null;
			queue.armed = false;
			queue.forget();
			// A node's event ends its watch; a connection's event leaves it set (it is
			// set again on reconnection), unless the session ended.
			remove = event.getType() == Watcher.Event.EventType.None
					&& event.getState() != Watcher.Event.KeeperState.Expired
					&& event.getState() != Watcher.Event.KeeperState.Closed;
		}
		if (remove) {
			this.session.removeWatch(watch, queue.path, Watcher.WatcherType.Data);
		}
	}

	private void evictBeyondCapacity() {
		Iterator<Queue> eldest = this.queues.values().iterator();
		while (this.queues.size() > CAPACITY && eldest.hasNext()) {
			Queue queue = eldest.next();
			eldest.remove();
			queue.armed = false;
			queue.forget();
			if (queue.watch != null) {
				Queue evicted = queue;
				this.session.send(() -> removeWatch(evicted));
			}
		}
	}

	private void removeWatch(Queue queue) {
		ParentWatch watch;
		synchronized (this) {
			watch = queue.watch;
			queue.watch = null;
			queue.armed = false;
		}
		if (watch != null) {
			this.session.removeWatch(watch, queue.path, Watcher.WatcherType.Data);
		}
	}

	/**
	 * What the answer of one create may prove: the queue's state it was sent with, and
	 * the number the node must have.
	 */
	record Proof(Queue queue, long epoch, int sequence) {

	}

	/** One queue's state, guarded by the {@code LoneQueues}' monitor. */
	static final class Queue {

		final String path;

		// The watch set (or being set) on the parent, and the handle it was set with.
		@Nullable ParentWatch watch;

		long instance;

		// Whether the watch's exists was answered with the parent there.
		boolean armed;

		// Our node last known the only child while the watch was set, whether its
		// delete was answered, and a count of the changes of both.
		@Nullable String alone;

		boolean aloneDeleted;

		long epoch;

		Queue(String path) {
			this.path = path;
		}

		boolean isArmed(long instance) {
			return this.armed && this.watch != null && this.instance == instance;
		}

		void alone(String nodeName) {
			this.alone = nodeName;
			this.aloneDeleted = false;
			this.epoch++;
		}

		void forget() {
			this.alone = null;
			this.aloneDeleted = false;
			this.epoch++;
		}

	}

	/** The one-shot data watch on one queue's parent. */
	private static final class ParentWatch implements Watcher {

		private final LoneQueues queues;

		private final Queue queue;

		ParentWatch(LoneQueues queues, Queue queue) {
			this.queues = queues;
			this.queue = queue;
		}

		@Override
		public void process(WatchedEvent event) {
			this.queues.fired(this.queue, this, event);
		}

	}

}
