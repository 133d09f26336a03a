package io.github.distlock.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;

import org.apache.curator.framework.CuratorFramework;
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
 * <p>
 * A server is plain unless a test asks for more: a tick time ({@link #withTickTime}),
 * configuration properties ({@link #withServerProperty}), a TLS port ({@link #withTls})
 * or system properties while it starts ({@link #withServerSystemProperty}). It is a
 * {@link ZooKeeperEnsemble} of one server; an ensemble of several is started with that
 * class itself.
 */
public final class ZooKeeperExtension
		implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

	private final NodeOptions options;

	private Duration tickTime;

	private final Map<String, Object> serverProperties = new LinkedHashMap<>();

	private Callable<TlsStores> tls;

	private int securePort = -1;

	private final Map<String, String> serverSystemProperties = new LinkedHashMap<>();

	private boolean closeQuietly;

	private ZooKeeperEnsemble ensemble;

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
		return new ZooKeeperExtension(options).withTickTime(Faults.TICK_TIME).closingQuietly();
	}

	/**
	 * Start each server with the given tick time: ZooKeeper grants a session between 2
	 * and 20 ticks, whatever the client asks for.
	 */
	public ZooKeeperExtension withTickTime(Duration tickTime) {
		this.tickTime = tickTime;
		return this;
	}

	/**
	 * Set a property of the server's configuration, as a line of {@code zoo.cfg} would
	 * (for example {@code maxSessionTimeout}).
	 */
	public ZooKeeperExtension withServerProperty(String key, Object value) {
		this.serverProperties.put(key, value);
		return this;
	}

	/**
	 * Open a secure client port on the server besides its plain one, on Netty, with TLS
	 * from the given stores (without client authentication). The stores are asked for
	 * before each server starts, so they may be made then (in a {@code @TempDir}, which
	 * JUnit fills before this extension starts a server). See {@link #securePort()}.
	 */
	public ZooKeeperExtension withTls(Callable<TlsStores> tls) {
		this.tls = tls;
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
		this.ensemble = startServer();
	}

	@Override
	public void beforeEach(ExtensionContext context) throws Exception {
		if (!this.perClass) {
			this.ensemble = startServer();
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
				closeServer();
			}
		}
	}

	@Override
	public void afterAll(ExtensionContext context) throws Exception {
		try {
			close(this.classNodes);
		}
		finally {
			closeServer();
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

	private ZooKeeperEnsemble startServer() throws Exception {
		ZooKeeperEnsemble.Builder builder = ZooKeeperEnsemble.builder();
		if (this.tickTime != null) {
			builder.tickTime(this.tickTime);
		}
		this.serverProperties.forEach(builder::serverProperty);
		if (this.tls != null) {
			this.securePort = ZooKeeperEnsemble.distinctFreePort();
			this.tls.call().serverProperties(this.securePort).forEach(builder::serverProperty);
		}
		this.serverSystemProperties.forEach(builder::systemPropertyWhileStarting);
		return builder.start();
	}

	private void closeServer() throws Exception {
		this.ensemble.close();
	}

	/** The running server, as a {@link ZooKeeperEnsemble} of one. */
	public ZooKeeperEnsemble ensemble() {
		return this.ensemble;
	}

	/** The running server, which a test may stop and restart. */
	public TestingServer server() {
		return this.ensemble.server();
	}

	/** The connect string of the running server's plain client port. */
	public String connectString() {
		return this.ensemble.connectString();
	}

	/** The secure client port of the running server, opened by {@link #withTls}. */
	public int securePort() {
		if (this.securePort == -1) {
			throw new IllegalStateException("The server has no secure client port: see withTls");
		}
		return this.securePort;
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

	/**
	 * A new node whose asynchronous acquisitions complete on the given executor, for
	 * tests that hold a grant back before it is delivered.
	 */
	public CuratorLocks newNode(Executor executor) {
		return nodes().node(connectString(), executor);
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

	/**
	 * PKCS12 stores of a server's TLS port.
	 *
	 * @param keyStore the server's key and the chain up to its CA
	 * @param trustStore the CAs the server trusts
	 * @param password the password of both stores
	 */
	public record TlsStores(Path keyStore, Path trustStore, String password) {

		Map<String, Object> serverProperties(int securePort) {
			Map<String, Object> properties = new LinkedHashMap<>();
			properties.put("secureClientPort", String.valueOf(securePort));
			properties.put("serverCnxnFactory", "org.apache.zookeeper.server.NettyServerCnxnFactory");
			properties.put("ssl.keyStore.location", this.keyStore.toString());
			properties.put("ssl.keyStore.password", this.password);
			properties.put("ssl.keyStore.type", "PKCS12");
			properties.put("ssl.trustStore.location", this.trustStore.toString());
			properties.put("ssl.trustStore.password", this.password);
			properties.put("ssl.trustStore.type", "PKCS12");
			properties.put("ssl.clientAuth", "none");
			return properties;
		}

	}

}
