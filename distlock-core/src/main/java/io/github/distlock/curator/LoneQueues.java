package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;

/**
 * The mutex queues of this client where its last node was known to be the queue's only
 * child, and what lets the answer of the next create prove the new node alone without
 * reading the queue (the rule and what it relies on: docs/failure-model.md, "A mutex
 * cycle without the queue's read").
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
 * A queue takes part when this client acquires it again within {@link #IDLE} (the first
 * acquisition costs no request more), and stops once it was not acquired for as long: its
 * watch is removed then, on the server too, so nothing is left once the locks are idle.
 * At most {@value #CAPACITY} queues are followed, the least recently used dropped first.
 * Everything is guarded by this object's monitor, taken after the acquisition's (never
 * the other way round).
 */
final class LoneQueues implements LoneGrants {

	/** How many queues' states are kept at most. */
	static final int CAPACITY = 4096;

	/**
	 * How long a queue stays taking part without an acquisition: its watch is set only if
	 * it is acquired again within this time, and removed once it was not for this long.
	 */
	static final Duration IDLE = Duration.ofSeconds(2);

	private static final Duration SWEEP_EVERY = Duration.ofSeconds(1);

	private final Session session;

	private final Requests requests;

	private final Threads threads;

	// IDLE, or another time set by a test that must not depend on how fast it runs.
	private volatile long idleNanos = IDLE.toNanos();

	private final Map<String, LoneQueue> queues = new LinkedHashMap<>(64, 0.75f, true);

	private boolean closed;

	// Whether a sweep of idle queues is scheduled (while any is kept), and when.
	private boolean sweeping;

	private Timer.@Nullable Scheduled sweep;

	LoneQueues(Session session, Requests requests, Threads threads) {
		this.session = session;
		this.requests = requests;
		this.threads = threads;
	}

	@Override
	public synchronized LoneQueue.@Nullable Proof before(String queuePath, long instance) {
		LoneQueue queue = this.queues.get(queuePath);
		if (queue == null) {
			return null;
		}
		long now = System.nanoTime();
		queue.previousUse = queue.lastUse;
		queue.lastUse = now;
		if (!queue.isArmed(instance) || queue.alone == null) {
			return null;
		}
		int sequence = QueueDriver.sequence(queue.alone, QueueDriver.LOCK_NAME);
		if (QueueDriver.isAtCeiling(sequence) || QueueDriver.isAtCeiling(sequence + 1)) {
			return null;
		}
		return new LoneQueue.Proof(queue, queue.epoch, sequence + 1);
	}

	@Override
	public synchronized boolean proves(LoneQueue.Proof proof, String nodeName, long instance) {
		LoneQueue queue = proof.queue();
		if (this.queues.get(queue.path) != queue || queue.epoch != proof.epoch() || !queue.isArmed(instance)
				|| !queue.aloneDeleted) {
			return false;
		}
		if (!QueueDriver.isNode(nodeName, QueueDriver.LOCK_NAME)
				|| QueueDriver.sequence(nodeName, QueueDriver.LOCK_NAME) != proof.sequence()) {
			return false;
		}
		queue.alone(nodeName);
		return true;
	}

	@Override
	public void watchParent(String queuePath, long instance) {
		LoneQueue queue;
		ParentWatch watch;
		synchronized (this) {
			if (this.closed) {
				return;
			}
			queue = this.queues.get(queuePath);
			long now = System.nanoTime();
			if (queue == null) {
				// Its first acquisition: only noted.
				LoneQueue noted = new LoneQueue(queuePath);
				noted.lastUse = now;
				noted.previousUse = now - 2 * this.idleNanos;
				this.queues.put(queuePath, noted);
				evictBeyondCapacity(now);
				sweepWhileKept();
				return;
			}
			if (queue.watch != null && queue.instance == instance) {
				return;
			}
			if (now - queue.previousUse > this.idleNanos) {
				// Acquired again only after a pause: not worth a watch.
				return;
			}
			watch = new ParentWatch(this, queue);
			queue.watch = watch;
			queue.armed = false;
			queue.instance = instance;
			queue.forget();
		}
		try {
			this.requests.stat(queuePath, watch, (event) -> answered(queue, watch, instance, event));
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
	 * Every second while a queue is kept: drop the queues not acquired for {@link #IDLE},
	 * and remove their watches.
	 */
	private void sweep() {
		List<LoneQueue> idle = new ArrayList<>();
		synchronized (this) {
			long now = System.nanoTime();
			for (Iterator<LoneQueue> queues = this.queues.values().iterator(); queues.hasNext();) {
				LoneQueue queue = queues.next();
				if (now - queue.lastUse > this.idleNanos) {
					queues.remove();
					if (queue.watch != null) {
						idle.add(queue);
					}
				}
			}
			this.sweeping = !this.queues.isEmpty() && !this.closed;
			this.sweep = this.sweeping ? scheduleSweep() : null;
		}
		idle.forEach(this::removeWatch);
	}

	private void sweepWhileKept() {
		if (!this.sweeping && !this.closed) {
			this.sweeping = true;
			this.sweep = scheduleSweep();
		}
	}

	private Timer.Scheduled scheduleSweep() {
		return this.threads.timer()
			.schedule(System.nanoTime() + SWEEP_EVERY.toNanos(), () -> this.threads.request(this::sweep));
	}

	/**
	 * The timeout of the sweep scheduled now, or {@code null} (for tests of what is left
	 * behind: it ends by itself once no queue was acquired for {@link #IDLE}).
	 */
	synchronized Timer.@Nullable Scheduled scheduledSweep() {
		return this.sweep;
	}

	@Override
	public synchronized void alone(String queuePath, String nodeName, long instance) {
		LoneQueue queue = this.queues.get(queuePath);
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
		LoneQueue queue = this.queues.get(nodePath.substring(0, slash));
		if (queue != null && queue.alone != null && queue.alone.equals(nodePath.substring(slash + 1))) {
			queue.aloneDeleted = true;
		}
	}

	/**
	 * Keep queues taking part for the given time without an acquisition instead of
	 * {@link #IDLE} (for tests, so that what they prove does not depend on how fast the
	 * machine runs them).
	 */
	void idleAfter(Duration idle) {
		this.idleNanos = idle.toNanos();
	}

	/** The locks are closed: remove every watch, and keep nothing. */
	void close() {
		List<LoneQueue> watched = new ArrayList<>();
		synchronized (this) {
			this.closed = true;
			if (this.sweep != null) {
				this.sweep.cancel();
				this.sweep = null;
			}
			for (LoneQueue queue : this.queues.values()) {
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
		for (LoneQueue queue : this.queues.values()) {
			if (queue.watch != null) {
				watched++;
			}
		}
		return new int[] { this.queues.size(), watched };
	}

	private void answered(LoneQueue queue, ParentWatch watch, long instance, CuratorEvent event) {
		KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
		// Set on the server: a data watch on the parent, or one on its creation.
		boolean set = code == KeeperException.Code.OK || code == KeeperException.Code.NONODE;
		boolean remove = false;
		synchronized (this) {
			if (queue.watch != watch) {
				// Removed before it was set (swept, evicted or closed; without a
				// connection only the client forgot it), and Curator sent the exists
				// again once the connection returned, or sent it after the removal: the
				// server set it now. It stays unless another watch of the queue needs it.
				LoneQueue current = this.queues.get(queue.path);
				remove = set && (current == null || current.watch == null);
			}
			else if (code == KeeperException.Code.OK && event.getStat() != null
					&& this.session.clientInstance() == instance && !this.closed) {
				queue.armed = true;
				sweepWhileKept();
			}
			else {
				// Not set on the parent (missing: the watch waits for its creation), or
				// through another handle, or the locks were closed meanwhile.
				queue.watch = null;
				remove = set;
			}
		}
		if (remove) {
			removeWatch(queue.path, watch);
		}
	}

	private void fired(LoneQueue queue, ParentWatch watch, WatchedEvent event) {
		boolean remove;
		synchronized (this) {
			if (queue.watch != watch) {
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
			removeWatch(queue.path, watch);
		}
	}

	// Holding the monitor: drop the least recently used queues beyond the capacity, and
	// those not acquired for a while whose watch is not set.
	private void evictBeyondCapacity(long now) {
		Iterator<LoneQueue> eldest = this.queues.values().iterator();
		while (eldest.hasNext()) {
			LoneQueue queue = eldest.next();
			boolean idle = queue.watch == null && now - queue.lastUse > this.idleNanos;
			if (this.queues.size() <= CAPACITY && !idle) {
				break;
			}
			eldest.remove();
			queue.armed = false;
			queue.forget();
			if (queue.watch != null) {
				Watcher watch = queue.watch;
				queue.watch = null;
				String path = queue.path;
				this.requests.send(() -> removeWatch(path, watch));
			}
		}
	}

	private void removeWatch(LoneQueue queue) {
		Watcher watch;
		synchronized (this) {
			watch = queue.watch;
			queue.watch = null;
			queue.armed = false;
			queue.forget();
		}
		if (watch != null) {
			removeWatch(queue.path, watch);
		}
	}

	/**
	 * Remove the parent's data watch, on the server too. Any other data watcher of this
	 * client on the parent is told it was removed, which undoes what it proved.
	 */
	private void removeWatch(String path, Watcher watch) {
		this.requests.removeAllWatches(watch, path, Watcher.WatcherType.Data);
	}

	/** The one-shot data watch on one queue's parent. */
	private static final class ParentWatch implements Watcher {

		private final LoneQueues queues;

		private final LoneQueue queue;

		ParentWatch(LoneQueues queues, LoneQueue queue) {
			this.queues = queues;
			this.queue = queue;
		}

		@Override
		public void process(WatchedEvent event) {
			this.queues.fired(this.queue, this, event);
		}

	}

}
