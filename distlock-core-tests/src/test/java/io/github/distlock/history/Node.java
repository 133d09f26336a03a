package io.github.distlock.history;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEventType;
import org.apache.curator.framework.state.ConnectionState;
import org.jspecify.annotations.Nullable;

import io.github.distlock.curator.CuratorLocks;

/**
 * One client of a checker run: a Curator client with a session of its own and, for a
 * distlock node, the engine on it ({@code null} for a raw Curator client). Records its
 * connection-state changes, which tell {@link HistoryAnalysis} when its holds were in
 * doubt, and the answers its client got to deletes sent in the background without a
 * callback (the engine's deletes of nodes nobody holds, and Curator's retries of
 * guaranteed deletes), which tell {@link LatchPresence} that a node was deleted by its
 * owner. Its client keeps its connection-state listeners with a {@link Dispatches}, which
 * tells when every listener had handled an event.
 */
final class Node {

	final int index;

	final String name;

	final CuratorFramework client;

	@Nullable final CuratorLocks locks;

	final boolean throughRelay;

	private final Dispatches dispatches;

	private final List<Change> changes = new ArrayList<>();

	private final List<String> deleted = new ArrayList<>();

	Node(int index, String name, CuratorFramework client, Dispatches dispatches, @Nullable CuratorLocks locks,
			boolean throughRelay, History history) {
		this.index = index;
		this.name = name;
		this.client = client;
		this.locks = locks;
		this.throughRelay = throughRelay;
		this.dispatches = dispatches;
		client.getConnectionStateListenable().addListener((source, state) -> {
			History.Event event = history.record(History.Type.CONNECTION, name, 0, null, 0, state.name());
			synchronized (this.changes) {
				this.changes.add(new Change(state, event.nanos()));
			}
		});
		client.getCuratorListenable().addListener((source, event) -> {
			if (event.getType() == CuratorEventType.DELETE && event.getPath() != null) {
				synchronized (this.deleted) {
					this.deleted.add(event.getPath());
				}
			}
		});
	}

	/**
	 * Whether the client was answered (whatever the answer) for a delete it sent in the
	 * background of a path ending with the given one.
	 */
	boolean deleteAnswered(String pathEnd) {
		synchronized (this.deleted) {
			return this.deleted.stream().anyMatch((path) -> path.endsWith(pathEnd));
		}
	}

	List<Change> changes() {
		synchronized (this.changes) {
			return List.copyOf(this.changes);
		}
	}

	/**
	 * When the connection-state events were handed to all the client's listeners, in
	 * order (the client was made with this node's {@link Dispatches}).
	 */
	List<Dispatches.Dispatch> dispatches() {
		return this.dispatches.dispatches();
	}

	/** A connection-state change and when it was seen. */
	record Change(ConnectionState state, long nanos) {
	}

}
