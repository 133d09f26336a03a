package io.github.distlock.curator;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;

/**
 * What one {@link QueuePosition} reads of its queue and watches in it: the queue's
 * children (watched as a whole for a lease), the creation order of nodes whose sequence
 * number does not tell it, and the one node a waiter watches (its predecessor, or the
 * first writer). It decides nothing: it hands each answer to its {@link Reader}, which
 * says whether the answer is still wanted.
 * <p>
 * Guarded by the same monitor as its position (the position's owner): every method is
 * called holding it, and every answer and watch takes it before the reader is called.
 */
final class QueueReading {

	/** The position the answers are for, called holding the monitor. */
	interface Reader {

		/** The generation of the node the position works with now. */
		int generation();

		/** Whether answers about this generation are wanted: its node is queued. */
		boolean queued(int generation);

		/**
		 * A read of the queue was answered (or failed): whether to go on with it, that is
		 * whether our node is queued. An answer that came before our node was known is
		 * noted by the position, to read again then.
		 */
		boolean readAnswered(int generation);

		/**
		 * The queue was read, and the creation order of its nodes is known: decide.
		 * @param children the queue's children, less the nodes found gone meanwhile
		 * @param order the known creation zxids, by node name
		 */
		void decide(int generation, List<String> children, Map<String, Long> order);

		/** A read or a watch was answered with a problem. */
		void problem(KeeperException.Code code, @Nullable String path);

		/** A request could not be sent. */
		void failed(Exception ex);

	}

	private final Engine engine;

	private final Requests requests;

	private final Object monitor;

	private final String queuePath;

	private final QueueDriver driver;

	private final Reader reader;

	private final Watch watch = new Watch(this);

	// The creation order of the queue's nodes whose sequence number does not tell it.
	private final CreationOrder order = new CreationOrder();

	// Paths our watcher is registered on, with the kind of watch, until it fires or
	// is removed.
	private final Map<String, Watcher.WatcherType> watched = new LinkedHashMap<>(2);

	QueueReading(Engine engine, Object monitor, String queuePath, QueueDriver driver, Reader reader) {
		this.engine = engine;
		this.requests = engine.session().requests();
		this.monitor = monitor;
		this.queuePath = queuePath;
		this.driver = driver;
		this.reader = reader;
	}

	/** Record our own node's creation zxid. */
	void know(String name, long czxid) {
		this.order.know(name, czxid);
	}

	/** Read the queue's children, watching the queue if the driver watches it. */
	void read(int generation) {
		try {
			Watcher watcher = null;
			if (this.driver.watchesQueue()) {
				this.watched.put(this.queuePath, Watcher.WatcherType.Children);
				watcher = this.watch;
			}
			this.requests.children(this.queuePath, watcher, (event) -> children(generation, event));
		}
		catch (Exception ex) {
			this.reader.failed(ex);
		}
	}

	private void children(int generation, CuratorEvent event) {
		synchronized (this.monitor) {
			if (!this.reader.readAnswered(generation)) {
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
				this.reader.problem(code, this.queuePath);
				return;
			}
			ForeignNodes.check(this.engine.client().getNamespace(), this.queuePath, children, this.driver);
			// Completes what a decision lacks (the creation order of nodes at the ceiling
			// of sequence numbers): at once, or from the answers of its reads.
			this.order.complete(this.requests, this.queuePath, children, this.driver.orderedNames(),
					(orderCode, present) -> ordered(generation, orderCode, present));
		}
	}

	private void ordered(int generation, KeeperException.Code code, List<String> children) {
		synchronized (this.monitor) {
			if (!this.reader.queued(generation)) {
				return;
			}
			if (code != KeeperException.Code.OK) {
				this.reader.problem(code, this.queuePath);
				return;
			}
			this.reader.decide(generation, children, this.order.known());
		}
	}

	/** Watch one node of the queue (a waiter's predecessor, or the first writer). */
	void watch(int generation, String name) {
		String path = ZKPaths.makePath(this.queuePath, name);
		this.watched.put(path, Watcher.WatcherType.Data);
		try {
			this.requests.data(path, this.watch, (event) -> {
				synchronized (this.monitor) {
					if (!this.reader.queued(generation)) {
						return;
					}
					KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
					if (code == KeeperException.Code.NONODE) {
						// Gone before the watch was set (no watch is left): look again.
						this.watched.remove(path);
						read(generation);
					}
					else if (code != KeeperException.Code.OK) {
						this.reader.problem(code, path);
					}
				}
			});
		}
		catch (Exception ex) {
			this.reader.failed(ex);
		}
	}

	private void watched(WatchedEvent event) {
		synchronized (this.monitor) {
			if (event.getType() == Watcher.Event.EventType.None) {
				return;
			}
			if (event.getPath() != null) {
				// A watch fires once: it is gone from ZooKeeper now.
				this.watched.remove(event.getPath());
			}
			int generation = this.reader.generation();
			if (this.reader.queued(generation)) {
				read(generation);
			}
		}
	}

	/**
	 * Remove the watches we still have registered (they would stay until their node
	 * changes, and be set again on every reconnection), and let go of the position.
	 */
	void forgetWatches() {
		this.watch.detach();
		this.watched.forEach((path, type) -> this.requests.removeWatch(this.watch, path, type));
		this.watched.clear();
	}

	/**
	 * The watcher of one position. ZooKeeper keeps a watcher until its node changes or it
	 * is removed; detaching it lets the position be collected even before that.
	 */
	private static final class Watch implements Watcher {

		private volatile @Nullable QueueReading reading;

		Watch(QueueReading reading) {
			this.reading = reading;
		}

		void detach() {
			this.reading = null;
		}

		@Override
		public void process(WatchedEvent event) {
			QueueReading reading = this.reading;
			if (reading != null) {
				reading.watched(event);
			}
		}

	}

}
