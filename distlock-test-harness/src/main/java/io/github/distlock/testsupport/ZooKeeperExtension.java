package io.github.distlock.testsupport;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
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
 * <p>
 * A server is plain unless a test asks for more: a spec of its own
 * ({@link #withServerSpec}), a tick time ({@link #withTickTime}), configuration
 * properties ({@link #withServerProperty}), a TLS port ({@link #withTls}) or system
 * properties while it starts ({@link #withServerSystemProperty}).
 */
public final class ZooKeeperExtension
		implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

	private final NodeOptions options;

	private Supplier<InstanceSpec> serverSpec;

	private int tickTimeMillis = -1;

	private final Map<String, Object> serverProperties = new LinkedHashMap<>();

	private Callable<TlsStores> tls;

	private int securePort = -1;

	private final Map<String, String> serverSystemProperties = new LinkedHashMap<>();

	private Properties systemPropertiesBeforeStart;

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
	 * Start each server with the given tick time: ZooKeeper grants a session between 2
	 * and 20 ticks, whatever the client asks for.
	 */
	public ZooKeeperExtension withTickTime(Duration tickTime) {
		this.tickTimeMillis = (int) tickTime.toMillis();
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
	 * Open a secure client port on each server besides its plain one, on Netty, with TLS
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

	private TestingServer startServer() throws Exception {
		InstanceSpec spec = serverSpec();
		if (!this.serverProperties.isEmpty() || this.tls != null) {
			// ZooKeeper's server turns configuration keys it does not know
			// (ssl.*, serverCnxnFactory) into JVM-wide zookeeper.* system
			// properties: they are put back when the server closes.
			this.systemPropertiesBeforeStart = (Properties) System.getProperties().clone();
		}
		Map<String, String> previous = new LinkedHashMap<>();
		this.serverSystemProperties.forEach((key, value) -> previous.put(key, System.setProperty(key, value)));
		try {
			return (spec != null) ? new TestingServer(spec, true) : new TestingServer(true);
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

	private InstanceSpec serverSpec() throws Exception {
		if (this.serverSpec != null) {
			if (this.tickTimeMillis != -1 || !this.serverProperties.isEmpty() || this.tls != null) {
				throw new IllegalStateException("A server spec of its own takes no tick time, properties or TLS");
			}
			return this.serverSpec.get();
		}
		if (this.tickTimeMillis == -1 && this.serverProperties.isEmpty() && this.tls == null) {
			return null;
		}
		Map<String, Object> properties = new LinkedHashMap<>(this.serverProperties);
		if (this.tls != null) {
			this.securePort = InstanceSpec.getRandomPort();
			properties.putAll(this.tls.call().serverProperties(this.securePort));
		}
		return new InstanceSpec(null, -1, -1, -1, true, -1, this.tickTimeMillis, -1, properties);
	}

	private void closeServer() throws Exception {
		try {
			this.server.close();
		}
		finally {
			if (this.systemPropertiesBeforeStart != null) {
				System.setProperties(this.systemPropertiesBeforeStart);
				this.systemPropertiesBeforeStart = null;
			}
		}
	}

	/** The running server, which a test may stop and restart. */
	public TestingServer server() {
		return this.server;
	}

	/** The connect string of the running server's plain client port. */
	public String connectString() {
		return this.server.getConnectString();
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
