package io.github.distlock.curator;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;

/**
 * The watches one waiter has registered with its one watcher, by path and kind, until
 * they fire or are forgotten; the watcher tells the waiter of its nodes' events.
 * Forgetting removes them from ZooKeeper (a watch stays until its node changes, and is
 * set again on every reconnection) and detaches the watcher, so that the waiter can be
 * collected even before. Guarded by the waiter's monitor.
 */
final class Watches {

	private final Map<String, Watcher.WatcherType> registered = new LinkedHashMap<>(2);

	private final Forward watcher;

	/** Watches whose events the given consumer is told, until they are forgotten. */
	Watches(Consumer<WatchedEvent> fired) {
		this.watcher = new Forward(fired);
	}

	/** Note a watch about to be set on a path: the watcher to set it with. */
	Watcher on(String path, Watcher.WatcherType type) {
		this.registered.put(path, type);
		return this.watcher;
	}

	/** A watch fired or was not set (a watch fires once): it is gone from ZooKeeper. */
	void gone(@Nullable String path) {
		if (path != null) {
			this.registered.remove(path);
		}
	}

	/** Remove every watch still registered, and detach the watcher. */
	void forget(Requests requests) {
		this.watcher.fired = null;
		this.registered.forEach((path, type) -> requests.removeWatch(this.watcher, path, type));
		this.registered.clear();
	}

	private static final class Forward implements Watcher {

		private volatile @Nullable Consumer<WatchedEvent> fired;

		Forward(Consumer<WatchedEvent> fired) {
			this.fired = fired;
		}

		@Override
		public void process(WatchedEvent event) {
			Consumer<WatchedEvent> fired = this.fired;
			// Connection events tell nothing about the watched nodes.
			if (fired != null && event.getType() != Watcher.Event.EventType.None) {
				fired.accept(event);
			}
		}

	}

}
