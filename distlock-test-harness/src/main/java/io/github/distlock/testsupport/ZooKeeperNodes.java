package io.github.distlock.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionStateListenerManagerFactory;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.curator.CuratorLocks;

/**
 * Nodes of a test cluster against a server or ensemble, closed together at the end. Each
 * node is a client with a session of its own and the {@link CuratorLocks} on it; raw
 * clients (for example to run Curator's own recipes next to distlock's, or to look at
 * nodes) come from the same options. Locks are closed before the clients.
 */
public final class ZooKeeperNodes implements AutoCloseable {

	private final NodeOptions options;

	private final List<AutoCloseable> closeables = new ArrayList<>();

	public ZooKeeperNodes(NodeOptions options) {
		this.options = options;
	}

	public NodeOptions options() {
		return this.options;
	}

	/** Start a raw client with a session of its own. */
	public CuratorFramework client(String connectString) {
		return client(connectString, this.options);
	}

	/**
	 * Start a raw client with options of its own, such as a namespace of {@code null} for
	 * ZooKeeper's root.
	 */
	public synchronized CuratorFramework client(String connectString, NodeOptions options) {
		CuratorFramework client = options.startClient(connectString);
		this.closeables.add(client);
		return client;
	}

	/**
	 * Start a raw client with a session of its own whose connection-state listeners are
	 * kept by a manager of the given factory.
	 */
	public synchronized CuratorFramework client(String connectString, ConnectionStateListenerManagerFactory listeners) {
		CuratorFramework client = this.options.startClient(connectString, listeners);
		this.closeables.add(client);
		return client;
	}

	/** Start a node: a client with a session of its own, and the locks on it. */
	public CuratorLocks node(String connectString) {
		return node(connectString, this.options);
	}

	/** Start a node with another connection-loss policy. */
	public CuratorLocks node(String connectString, ConnectionLossPolicy policy) {
		return node(connectString, this.options.withConnectionLossPolicy(policy));
	}

	/** Start a node with options of its own. */
	public CuratorLocks node(String connectString, NodeOptions options) {
		return start(connectString, options, null);
	}

	/**
	 * Start a node whose asynchronous acquisitions complete on the given executor (see
	 * {@link NodeOptions#createLocks(CuratorFramework, Executor)}).
	 */
	public CuratorLocks node(String connectString, Executor executor) {
		return start(connectString, this.options, executor);
	}

	private synchronized CuratorLocks start(String connectString, NodeOptions options, @Nullable Executor executor) {
		CuratorFramework client = options.startClient(connectString);
		this.closeables.add(client);
		CuratorLocks locks = (executor != null) ? options.createLocks(client, executor) : options.createLocks(client);
		this.closeables.add(0, locks);
		return locks;
	}

	/**
	 * Close the given nodes (or anything else) with the others.
	 * @return the closeable
	 */
	public synchronized <T extends AutoCloseable> T register(T closeable) {
		this.closeables.add(0, closeable);
		return closeable;
	}

	/**
	 * Close every node and client; when one fails to close, the others are closed still
	 * and the first failure is thrown.
	 */
	@Override
	public void close() throws Exception {
		Exception failure = closeAll();
		if (failure != null) {
			throw failure;
		}
	}

	/**
	 * Close every node and client, ignoring failures: after a fault (an expired session,
	 * a server gone) closing may fail, and that is not what the test is about.
	 */
	public void closeQuietly() {
		closeAll();
	}

	private synchronized Exception closeAll() {
		Exception failure = null;
		for (AutoCloseable closeable : this.closeables) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				if (failure == null) {
					failure = ex;
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		this.closeables.clear();
		return failure;
	}

}
