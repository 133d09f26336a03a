package io.github.distlock.testsupport;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.curator.CuratorLocks;

/**
 * A real ZooKeeper server for a test, and nodes on it (clients with sessions of their
 * own, see {@link ZooKeeperNodes}). Registered with {@code @RegisterExtension} on a
 * static field, the server lives for the class; on an instance field, each test gets a
 * fresh server it may stop and restart. Nodes and clients made during a test are closed
 * after it; those made in {@code @BeforeAll} live until the class is done.
 */
public final class ZooKeeperExtension
		implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

	private final NodeOptions options;

	private Supplier<InstanceSpec> serverSpec;

	private final Map<String, String> serverSystemProperties = new LinkedHashMap<>();

	private boolean closeQuietly;

	private TestingServer server;

	private boolean perClass;

	private final ZooKeeperNodes classNodes;

	private volatile ZooKeeperNodes testNodes;

	/** A server, and nodes with {@link NodeOptions#defaults()}. */
	public ZooKeeperExtension() {
		this(NodeOptions.defaults());
	}

	/** A server, and nodes with the given options. */
	public ZooKeeperExtension(NodeOptions options) {
		this.options = options;
		this.classNodes = new ZooKeeperNodes(options);
	}

	/**
	 * A server whose tick time allows short sessions, and nodes with
	 * {@link Faults#NODES}, closed quietly after each test: the set-up of fault tests.
	 */
	public static ZooKeeperExtension forFaults() {
		return forFaults(Faults.NODES);
	}

	/** As {@link #forFaults()}, with nodes made with the given options. */
	public static ZooKeeperExtension forFaults(NodeOptions options) {
		return new ZooKeeperExtension(options).withServerSpec(() -> Faults.shortSessionSpec(-1)).closingQuietly();
	}

	/** Start each server from a spec from this supplier (a spec picks its ports). */
	public ZooKeeperExtension withServerSpec(Supplier<InstanceSpec> serverSpec) {
		this.serverSpec = serverSpec;
		return this;
	}

	/**
	 * Set a system property while the server starts, for the settings ZooKeeper reads
	 * only from system properties.
	 */
	public ZooKeeperExtension withServerSystemProperty(String key, String value) {
		this.serverSystemProperties.put(key, value);
		return this;
	}

	/**
	 * Close nodes ignoring failures, as fault tests need (see
	 * {@link ZooKeeperNodes#closeQuietly()}).
	 */
	public ZooKeeperExtension closingQuietly() {
		this.closeQuietly = true;
		return this;
	}

	@Override
	public void beforeAll(ExtensionContext context) throws Exception {
		this.perClass = true;
		this.server = startServer();
	}

	@Override
	public void beforeEach(ExtensionContext context) throws Exception {
		if (!this.perClass) {
			this.server = startServer();
		}
		this.testNodes = new ZooKeeperNodes(this.options);
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		try {
			close(this.testNodes);
		}
		finally {
			this.testNodes = null;
			if (!this.perClass) {
				this.server.close();
			}
		}
	}

	@Override
	public void afterAll(ExtensionContext context) throws Exception {
		try {
			close(this.classNodes);
		}
		finally {
			this.server.close();
		}
	}

	private void close(ZooKeeperNodes nodes) throws Exception {
		if (this.closeQuietly) {
			nodes.closeQuietly();
		}
		else {
			nodes.close();
		}
	}

	private TestingServer startServer() throws Exception {
		Map<String, String> previous = new LinkedHashMap<>();
		this.serverSystemProperties.forEach((key, value) -> previous.put(key, System.setProperty(key, value)));
		try {
			return (this.serverSpec != null) ? new TestingServer(this.serverSpec.get(), true) : new TestingServer(true);
		}
		finally {
			previous.forEach((key, value) -> {
				if (value == null) {
					System.clearProperty(key);
				}
				else {
					System.setProperty(key, value);
				}
			});
		}
	}

	/** The running server, which a test may stop and restart. */
	public TestingServer server() {
		return this.server;
	}

	public String connectString() {
		return this.server.getConnectString();
	}

	/** The options nodes are made with. */
	public NodeOptions options() {
		return this.options;
	}

	/** The nodes of the running test, or of the class outside a test. */
	public ZooKeeperNodes nodes() {
		return (this.testNodes != null) ? this.testNodes : this.classNodes;
	}

	/** A new node: a client with its own session, and the locks on it. */
	public CuratorLocks newNode() {
		return nodes().node(connectString());
	}

	/** A new node with the given connection-loss policy. */
	public CuratorLocks newNode(ConnectionLossPolicy policy) {
		return nodes().node(connectString(), policy);
	}

	/** A new node connected to another connect string. */
	public CuratorLocks newNode(String connectString) {
		return nodes().node(connectString);
	}

	/**
	 * A new raw client with its own session, for Curator's own recipes or for looking at
	 * nodes.
	 */
	public CuratorFramework newClient() {
		return nodes().client(connectString());
	}

}
