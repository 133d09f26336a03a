package io.github.distlock.history;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.jspecify.annotations.Nullable;

import io.github.distlock.curator.CuratorLocks;

/**
 * One client of a checker run: a Curator client with a session of its own and, for a
 * distlock node, the engine on it ({@code null} for a raw Curator client). Records its
 * connection-state changes, which tell {@link HistoryAnalysis} when its holds were in
 * doubt.
 */
final class Node {

	final int index;

	final String name;

	final CuratorFramework client;

	@Nullable final CuratorLocks locks;

	final boolean throughRelay;

	private final List<Change> changes = new ArrayList<>();

	Node(int index, String name, CuratorFramework client, @Nullable CuratorLocks locks, boolean throughRelay,
			History history) {
		this.index = index;
		this.name = name;
		this.client = client;
		this.locks = locks;
		this.throughRelay = throughRelay;
		client.getConnectionStateListenable().addListener((source, state) -> {
			History.Event event = history.record(History.Type.CONNECTION, name, 0, null, 0, state.name());
			synchronized (this.changes) {
				this.changes.add(new Change(state, event.nanos()));
			}
		});
	}

	List<Change> changes() {
		synchronized (this.changes) {
			return List.copyOf(this.changes);
		}
	}

	/** A connection-state change and when it was seen. */
	record Change(ConnectionState state, long nanos) {
	}

}
