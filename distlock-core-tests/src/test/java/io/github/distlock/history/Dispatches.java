package io.github.distlock.history;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.listen.StandardListenerManager;
import org.apache.curator.framework.listen.UnaryListenerManager;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.framework.state.ConnectionStateListenerManagerFactory;

/**
 * When one client's connection-state events were handed to its listeners: the client
 * keeps its listeners in Curator's standard manager (called in no fixed order), and this
 * marks each event before the first of them is called and after the last has returned.
 * Curator hands a client's events to its listeners on one thread, one event at a time, so
 * once an event's end is marked every listener (the engine's, a latch's) has handled it,
 * and none has begun on the next one before that one's start is marked. Listeners added
 * with an executor of their own are not covered (the engine and Curator's latch add
 * theirs without).
 */
final class Dispatches implements ConnectionStateListenerManagerFactory {

	private final List<Dispatch> dispatches = new ArrayList<>();

	@Override
	public UnaryListenerManager<ConnectionStateListener> newManager(CuratorFramework client) {
		UnaryListenerManager<ConnectionStateListener> listeners = StandardListenerManager.standard();
		return new UnaryListenerManager<>() {

			@Override
			public void addListener(ConnectionStateListener listener) {
				listeners.addListener(listener);
			}

			@Override
			public void addListener(ConnectionStateListener listener, Executor executor) {
				listeners.addListener(listener, executor);
			}

			@Override
			public void removeListener(ConnectionStateListener listener) {
				listeners.removeListener(listener);
			}

			@Override
			public void clear() {
				listeners.clear();
			}

			@Override
			public int size() {
				return listeners.size();
			}

			@Override
			public void forEach(Consumer<ConnectionStateListener> function) {
				long[] began = new long[1];
				function.accept((source, state) -> began[0] = System.nanoTime());
				listeners.forEach(function);
				function.accept((source, state) -> dispatched(state, began[0], System.nanoTime()));
			}

		};
	}

	private void dispatched(ConnectionState state, long began, long handled) {
		synchronized (this.dispatches) {
			this.dispatches.add(new Dispatch(state, began, handled));
		}
	}

	List<Dispatch> dispatches() {
		synchronized (this.dispatches) {
			return List.copyOf(this.dispatches);
		}
	}

	/**
	 * One event handed to the listeners: before the first was called, and after the last
	 * returned (on the clock of the history's events).
	 */
	record Dispatch(ConnectionState state, long began, long handled) {
	}

}
