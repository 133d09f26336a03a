package io.github.distlock.curator;

import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A member's watch on its group's node for a leader's {@link HandOffRequest}: while the
 * member takes part, its data is watched (its existence, while the group has no node); a
 * request whose leader and target enclose the member's waiting node has the member
 * re-enter the queue, so that it sorts behind the target. The watch is set again after
 * every event and every reconnection, and removed when the member leaves; a stale request
 * read again does no harm, since a node that moved sorts behind the target, and so does
 * every node made since.
 */
final class HandOffWatch {

	private static final Logger logger = LoggerFactory.getLogger(HandOffWatch.class);

	private final Engine engine;

	private final String queuePath;

	private final Mover mover;

	private final Watcher watcher = this::changed;

	HandOffWatch(Engine engine, String queuePath, Mover mover) {
		this.engine = engine;
		this.queuePath = queuePath;
		this.mover = mover;
	}

	/** Read the group node's data, and watch it. */
	void watch() {
		if (!this.mover.takesPart()) {
			return;
		}
		try {
			this.engine.requests().data(this.queuePath, this.watcher, (event) -> {
				KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
				if (!this.mover.takesPart()) {
					// Left while the read was under way.
					unwatch();
				}
				else if (code == KeeperException.Code.OK) {
					read(HandOffRequest.parse(event.getData()));
				}
				else if (code == KeeperException.Code.NONODE) {
					watchCreation();
				}
				// A connection problem: watched again at the reconnection.
			});
		}
		catch (Exception ex) {
			logger.debug("Could not watch the hand-offs of {}: {}", this.queuePath, ex.toString());
		}
	}

	private void watchCreation() {
		try {
			this.engine.requests().stat(this.queuePath, this.watcher, (event) -> {
				if (!this.mover.takesPart()) {
					unwatch();
				}
				else if (event.getResultCode() == KeeperException.Code.OK.intValue()) {
					watch();
				}
			});
		}
		catch (Exception ex) {
			logger.debug("Could not watch {} for its creation: {}", this.queuePath, ex.toString());
		}
	}

	/**
	 * Stop watching: the member left (a watch stays registered until its node changes,
	 * and is set again on every reconnection). Every data watch of this client on the
	 * group node goes, on the server too: removing one watcher may leave the server's.
	 */
	void unwatch() {
		this.engine.requests().removeAllWatches(this.watcher, this.queuePath, Watcher.WatcherType.Data);
	}

	private void changed(WatchedEvent event) {
		if (event.getType() != Watcher.Event.EventType.None) {
			watch();
		}
	}

	private void read(@Nullable HandOffRequest request) {
		if (request != null) {
			this.mover.handOff(request);
		}
	}

	/** The member that moves. */
	interface Mover {

		/** Whether the member takes part in the election (else the watch ends). */
		boolean takesPart();

		/**
		 * A leader asks to hand over: re-enter the queue if our waiting node sits between
		 * the leader and the target.
		 */
		void handOff(HandOffRequest request);

	}

}
