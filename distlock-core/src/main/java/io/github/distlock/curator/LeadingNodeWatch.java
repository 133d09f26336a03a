package io.github.distlock.curator;

import java.util.function.Consumer;

import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watch a participant keeps on its own latch node while it leads: the node's delete
 * (by hand, or by another client) is told, so that the tenure ends and the participant
 * queues again. The participant checks that the node told is still its own.
 */
final class LeadingNodeWatch {

	private static final Logger logger = LoggerFactory.getLogger(LeadingNodeWatch.class);

	private final Engine engine;

	private final String group;

	private final Consumer<LockNode> gone;

	private final Watcher watcher = this::changed;

	private volatile @Nullable LockNode watched;

	LeadingNodeWatch(Engine engine, String group, Consumer<LockNode> gone) {
		this.engine = engine;
		this.group = group;
		this.gone = gone;
	}

	/** Watch the node that leads now; told at once if it is gone already. */
	void watch(LockNode node) {
		this.watched = node;
		try {
			this.engine.requests().data(node.path(), this.watcher, (event) -> {
				if (event.getResultCode() == KeeperException.Code.NONODE.intValue()) {
					this.gone.accept(node);
				}
			});
		}
		catch (Exception ex) {
			logger.debug("Could not watch the latch node of group '{}': {}", this.group, ex.toString());
		}
	}

	/** Stop watching the node: it is given up. */
	void unwatch(LockNode node) {
		if (this.watched == node) {
			this.watched = null;
		}
		this.engine.requests().removeWatch(this.watcher, node.path(), Watcher.WatcherType.Data);
	}

	private void changed(WatchedEvent event) {
		LockNode node = this.watched;
		if (event.getType() == Watcher.Event.EventType.NodeDeleted && node != null
				&& node.path().equals(event.getPath())) {
			this.gone.accept(node);
		}
	}

}
