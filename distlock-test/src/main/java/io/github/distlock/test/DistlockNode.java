package io.github.distlock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;

import io.github.distlock.core.Locks;
import io.github.distlock.relay.TcpRelay;

/**
 * One instance of the application under test, as ZooKeeper sees it: a client with a
 * session of its own, connected through a {@link TcpRelay} that the {@link TestZooKeeper}
 * controls, so that a fault can be aimed at this node alone. A node is either an
 * application context (started by {@link TestZooKeeper#startNodes} or the context of a
 * test with {@link AutoConfigureDistlockZooKeeper}) or a bare client with distlock's
 * locks on it ({@link TestZooKeeper#newNode}).
 * <p>
 * The node remembers every connection state its client reported since the kit first
 * looked at it, so that a fault can return once the node has seen it.
 */
public final class DistlockNode implements AutoCloseable {

	private final String name;

	private final TcpRelay relay;

	private final @Nullable ConfigurableApplicationContext context;

	private final @Nullable CuratorFramework ownClient;

	private final @Nullable Locks ownLocks;

	private final @Nullable LockRecorder ownRecorder;

	private final List<ConnectionState> states = new ArrayList<>();

	private @Nullable CuratorFramework listenedTo;

	private final boolean owned;

	private volatile boolean closed;

	DistlockNode(String name, TcpRelay relay, ConfigurableApplicationContext context, boolean owned) {
		this.name = name;
		this.relay = relay;
		this.context = context;
		this.owned = owned;
		this.ownClient = null;
		this.ownLocks = null;
		this.ownRecorder = null;
	}

	DistlockNode(String name, TcpRelay relay, CuratorFramework client, Locks locks, LockRecorder recorder) {
		this.name = name;
		this.relay = relay;
		this.context = null;
		this.owned = true;
		this.ownClient = client;
		this.ownLocks = locks;
		this.ownRecorder = recorder;
		listen();
	}

	/** The node's name, as faults and reports call it. */
	public String getName() {
		return this.name;
	}

	/**
	 * The relay the node's connection goes through: for faults finer than
	 * {@link TestZooKeeper}'s, such as {@link TcpRelay#pause() pausing} the connection
	 * (in one direction or both) or {@link TcpRelay#dropConnections() dropping} it once.
	 * {@link TestZooKeeper#heal()} undoes them.
	 * @return the node's relay
	 */
	public TcpRelay getRelay() {
		return this.relay;
	}

	/**
	 * The node's application context, if it is one.
	 * @return the context, or empty for a bare client
	 */
	public Optional<ConfigurableApplicationContext> getApplicationContext() {
		return Optional.ofNullable(this.context);
	}

	/**
	 * A bean of the node's application context.
	 * @param type the type of the bean
	 * @return the bean
	 * @throws IllegalStateException if the node is not an application context
	 */
	public <T> T getBean(Class<T> type) {
		if (this.context == null) {
			throw new IllegalStateException("Node " + this.name + " is a bare client, not an application context");
		}
		return this.context.getBean(type);
	}

	/** The node's ZooKeeper client. */
	public CuratorFramework getClient() {
		CuratorFramework client = (this.ownClient != null) ? this.ownClient : getBean(CuratorFramework.class);
		listen();
		return client;
	}

	/** The node's locks. */
	public Locks getLocks() {
		return (this.ownLocks != null) ? this.ownLocks : getBean(Locks.class);
	}

	/**
	 * The node's lock history: every acquisition its locks made since the node started
	 * (or since the recorder was {@link LockRecorder#clear() cleared}), with fencing
	 * tokens. The same object as {@code getBean(LockRecorder.class)} for an application
	 * context.
	 * @return the node's recorder
	 */
	public LockRecorder getRecorder() {
		return (this.ownRecorder != null) ? this.ownRecorder : getBean(LockRecorder.class);
	}

	/**
	 * Wait until an acquisition of the given lock is waiting on this node: shorthand for
	 * {@code getRecorder().awaitWaiting(pathOrTemplate)}.
	 * @param pathOrTemplate the lock's path or template
	 * @return the waiting acquisition
	 * @throws AssertionError if none waits within
	 * {@link LockRecorder#DEFAULT_AWAIT_TIMEOUT}
	 */
	public LockAcquisition awaitWaiting(String pathOrTemplate) {
		return getRecorder().awaitWaiting(pathOrTemplate);
	}

	/**
	 * The id of the node's current ZooKeeper session, once connected.
	 * @return the session id, 0 before the first connection
	 */
	public long getSessionId() {
		try {
			return getClient().getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Node " + this.name + " has no ZooKeeper handle", ex);
		}
	}

	/** Whether the node's client is connected to ZooKeeper now. */
	public boolean isConnected() {
		return getClient().getZookeeperClient().isConnected();
	}

	/**
	 * The connection states the node has reported since the kit first looked at it,
	 * beginning with its first {@code CONNECTED} once it has connected (even if Curator
	 * told it before the kit listened).
	 */
	public List<ConnectionState> getConnectionStates() {
		synchronized (this.states) {
			return List.copyOf(this.states);
		}
	}

	/** How many connection states the node has reported so far: a mark to wait from. */
	int stateMark() {
		getClient();
		synchronized (this.states) {
			return this.states.size();
		}
	}

	/**
	 * Wait until the node reports a state matching the given one after the mark.
	 * @return the state reported
	 */
	ConnectionState awaitState(int mark, Predicate<ConnectionState> wanted, String description, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		synchronized (this.states) {
			while (true) {
				for (int i = mark; i < this.states.size(); i++) {
					if (wanted.test(this.states.get(i))) {
						return this.states.get(i);
					}
				}
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					throw new AssertionError("Node " + this.name + " did not report " + description + " within "
							+ timeout + "; it reported " + this.states.subList(mark, this.states.size()));
				}
				try {
					this.states.wait(Math.max(1, left / 1_000_000));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException("Interrupted waiting for node " + this.name, ex);
				}
			}
		}
	}

	private void listen() {
		CuratorFramework client = (this.ownClient != null) ? this.ownClient
				: (this.context != null) ? this.context.getBean(CuratorFramework.class) : null;
		synchronized (this.states) {
			if (client == null || client == this.listenedTo) {
				return;
			}
			this.listenedTo = client;
		}
		client.getConnectionStateListenable().addListener((c, state) -> {
			synchronized (this.states) {
				if (state == ConnectionState.CONNECTED && this.states.contains(ConnectionState.CONNECTED)) {
					// The first connection, told late: already recorded when the kit
					// began to listen.
					return;
				}
				this.states.add(state);
				this.states.notifyAll();
			}
		});
		synchronized (this.states) {
			// Curator reports CONNECTED once, for the first connection, to the listeners
			// it has when its event thread gets to it: one added after the client
			// connected may get it, late, or not at all. Recorded here either way, first,
			// so that what follows a mark is exactly what happened after it.
			if (client.getZookeeperClient().isConnected() && !this.states.contains(ConnectionState.CONNECTED)) {
				this.states.add(0, ConnectionState.CONNECTED);
				this.states.notifyAll();
			}
		}
	}

	/** Whether the node was closed. */
	public boolean isClosed() {
		return this.closed || (this.context != null && this.context.isClosed());
	}

	/** The application context of a Spring Boot test closed: so did its node. */
	void markClosed() {
		this.closed = true;
	}

	/**
	 * Whether the kit started the node, and so closes it; the context of a Spring Boot
	 * test belongs to Spring's test context cache instead.
	 */
	boolean isOwned() {
		return this.owned;
	}

	/**
	 * Stop the node: close its application context or client, then its relay. The node of
	 * a Spring Boot test's own context only closes when that context does.
	 */
	@Override
	public void close() {
		if (this.closed || !this.owned) {
			return;
		}
		this.closed = true;
		try {
			if (this.context != null) {
				this.context.close();
			}
			if (this.ownLocks instanceof AutoCloseable closeable) {
				closeable.close();
			}
			if (this.ownClient != null) {
				this.ownClient.close();
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not close node " + this.name, ex);
		}
		finally {
			this.relay.close();
		}
	}

	@Override
	public String toString() {
		return "node " + this.name + " (via " + this.relay.getConnectString() + ")";
	}

}
