package io.github.distlock.testsupport;

import java.io.IOException;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.apache.curator.test.ZooKeeperServerEmbeddedAdapter;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.FourLetterWordMain;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.jspecify.annotations.Nullable;

/**
 * Real ZooKeeper servers for tests, in the test's JVM: one server (curator-test's
 * {@link TestingServer}) or an ensemble of several ({@link TestingCluster}), whose
 * servers a test stops and starts again. Every server of a test run gets client, quorum
 * and election ports no other server of the run got. Built with {@link #builder()}:
 *
 * <pre class="code">
 * try (ZooKeeperEnsemble ensemble = ZooKeeperEnsemble.builder().servers(3).tickTime(Faults.TICK_TIME).start()) {
 *     ensemble.stop(0);
 *     // ...
 * }
 * </pre>
 *
 * distlock's tests start their ZooKeeper servers here: {@link ZooKeeperExtension} and the
 * test kit's server are built on it.
 */
public final class ZooKeeperEnsemble implements AutoCloseable {

	private static final Set<Integer> PORTS_HANDED_OUT = ConcurrentHashMap.newKeySet();

	private final @Nullable TestingServer server;

	private final @Nullable TestingCluster cluster;

	private final List<InstanceSpec> specs;

	private final boolean[] running;

	private final Map<String, Integer> childVersions = new LinkedHashMap<>();

	private final @Nullable Properties systemPropertiesBeforeStart;

	private ZooKeeperEnsemble(@Nullable TestingServer server, @Nullable TestingCluster cluster,
			List<InstanceSpec> specs, @Nullable Properties systemPropertiesBeforeStart) {
		this.server = server;
		this.cluster = cluster;
		this.specs = List.copyOf(specs);
		this.running = new boolean[specs.size()];
		Arrays.fill(this.running, true);
		this.systemPropertiesBeforeStart = systemPropertiesBeforeStart;
	}

	/** Settings of the servers to start; by default one server, ZooKeeper's tick time. */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * The spec of a server: ports no other spec of this JVM got, a data directory deleted
	 * on close.
	 * @param serverId the server's id in an ensemble, -1 for a single server
	 * @param tickTimeMillis the tick time, -1 for ZooKeeper's
	 * @param properties further lines of the server's configuration
	 */
	static InstanceSpec spec(int serverId, int tickTimeMillis, Map<String, Object> properties) {
		return new InstanceSpec(null, distinctFreePort(), distinctFreePort(), distinctFreePort(), true, serverId,
				tickTimeMillis, -1, properties);
	}

	/**
	 * A free port this JVM has not handed out before. curator-test draws each port of a
	 * spec on its own, so two of an ensemble's ports can be the same one, and the server
	 * then refuses its configuration ("Client and election port must be different").
	 */
	static int distinctFreePort() {
		while (true) {
			int port = InstanceSpec.getRandomPort();
			if (PORTS_HANDED_OUT.add(port)) {
				return port;
			}
		}
	}

	/** How many servers. */
	public int size() {
		return this.specs.size();
	}

	/** The connect string of every server. */
	public String connectString() {
		return (this.server != null) ? this.server.getConnectString() : cluster().getConnectString();
	}

	/** The client port of the first (or only) server. */
	public int port() {
		return port(0);
	}

	/** The client port of a server, by index. */
	public int port(int index) {
		return this.specs.get(index).getPort();
	}

	/** The specs of the servers, in index order. */
	public List<InstanceSpec> specs() {
		return this.specs;
	}

	/**
	 * The server, which a test may stop and restart itself.
	 * @throws IllegalStateException for an ensemble of several servers
	 */
	public TestingServer server() {
		if (this.server == null) {
			throw new IllegalStateException(
					"An ensemble of " + size() + " servers has no single server: see cluster()");
		}
		return this.server;
	}

	/**
	 * The ensemble, for what curator-test offers on it.
	 * @throws IllegalStateException for a single server
	 */
	public TestingCluster cluster() {
		if (this.cluster == null) {
			throw new IllegalStateException("A single server is no ensemble: see server()");
		}
		return this.cluster;
	}

	/** Whether the server of the given index runs (as far as this class stopped it). */
	public synchronized boolean isRunning(int index) {
		return this.running[index];
	}

	/**
	 * Stop a server, keeping its data: a single server stops, a server of an ensemble is
	 * killed. Nothing happens if it is stopped already.
	 */
	public synchronized void stop(int index) throws Exception {
		if (!this.running[index]) {
			return;
		}
		if (this.server != null) {
			this.server.stop();
		}
		else {
			cluster().killServer(this.specs.get(index));
		}
		this.running[index] = false;
	}

	/**
	 * Start a stopped server again, on its ports with its data. Nothing happens if it
	 * runs.
	 */
	public synchronized void restart(int index) throws Exception {
		if (this.running[index]) {
			return;
		}
		if (this.server != null) {
			this.server.restart();
			for (Map.Entry<String, Integer> kept : this.childVersions.entrySet()) {
				ServerState.setChildVersion(this.server, kept.getKey(), kept.getValue());
			}
		}
		else {
			cluster().restartServer(this.specs.get(index));
		}
		this.running[index] = true;
	}

	/**
	 * Set the child version of a node on the server (one server only), so that its next
	 * sequential child gets that number, and set it again after every restart: the
	 * server's log does not keep it.
	 * @param path the node's full path (namespace included)
	 * @param childVersion the new child version
	 * @throws Exception if the server refuses
	 */
	public synchronized void keepChildVersion(String path, int childVersion) throws Exception {
		if (this.server == null) {
			throw new IllegalStateException("Child versions are set on a single server only");
		}
		this.childVersions.put(path, childVersion);
		ServerState.setChildVersion(this.server, path, childVersion);
	}

	/** Stop every running server. */
	public synchronized void stop() throws Exception {
		for (int index = 0; index < size(); index++) {
			stop(index);
		}
	}

	/** Start every stopped server again. */
	public synchronized void restart() throws Exception {
		for (int index = 0; index < size(); index++) {
			restart(index);
		}
	}

	/** The index of the server a client is connected to, -1 if unknown. */
	public int serverOf(ZooKeeper zooKeeper) {
		if (this.server != null) {
			return 0;
		}
		try {
			return this.specs.indexOf(cluster().findConnectionInstance(zooKeeper));
		}
		catch (Exception ex) {
			return -1;
		}
	}

	/**
	 * The index of the leader (the single server, if it runs), -1 if no running server
	 * says it leads.
	 */
	public synchronized int leader() {
		for (int index = 0; index < size(); index++) {
			if (this.running[index]) {
				try {
					String report = FourLetterWordMain.send4LetterWord("localhost", port(index), "srvr");
					if (report.contains("Mode: leader") || report.contains("Mode: standalone")) {
						return index;
					}
				}
				catch (Exception ex) {
					// Not answering: not the leader.
				}
			}
		}
		return -1;
	}

	/**
	 * Whether the single server knows the session (it is open, and has not expired or
	 * been closed).
	 * @param sessionId the session's id
	 */
	public boolean hasSession(long sessionId) {
		ZooKeeperServer zooKeeperServer = zooKeeperServer(server());
		return zooKeeperServer.getSessionTracker().isTrackingSession(sessionId)
				|| zooKeeperServer.getZKDatabase().getSessionWithTimeOuts().containsKey(sessionId);
	}

	/**
	 * ZooKeeper's own server inside a running {@link TestingServer}. curator-test keeps
	 * it to itself: its main runs either ZooKeeper's embedded server (whose connection
	 * factory knows the server) or its own main.
	 */
	static ZooKeeperServer zooKeeperServer(TestingServer testingServer) {
		Object main = field(field(testingServer, "testingZooKeeperServer"), "main");
		Object zooKeeperServer = (main instanceof ZooKeeperServerEmbeddedAdapter adapter)
				? adapter.getServerCnxnFactory().getZooKeeperServer() : field(main, "zkServer");
		if (!(zooKeeperServer instanceof ZooKeeperServer running)) {
			throw new IllegalStateException("The ZooKeeper server is not running");
		}
		return running;
	}

	private static @Nullable Object field(@Nullable Object target, String name) {
		if (target == null) {
			return null;
		}
		for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
			try {
				Field field = type.getDeclaredField(name);
				field.setAccessible(true);
				return field.get(target);
			}
			catch (NoSuchFieldException ex) {
				// Declared higher up.
			}
			catch (ReflectiveOperationException ex) {
				throw new IllegalStateException("Cannot read " + name + " of " + type, ex);
			}
		}
		throw new IllegalStateException("No field " + name + " in " + target.getClass()
				+ ": this curator-test version is not the one the harness was built with");
	}

	/**
	 * Stop every server and delete its data; the system properties the servers' start
	 * changed are put back.
	 */
	@Override
	public void close() throws IOException {
		try {
			if (this.server != null) {
				this.server.close();
			}
			else {
				cluster().close();
			}
		}
		finally {
			if (this.systemPropertiesBeforeStart != null) {
				System.setProperties(this.systemPropertiesBeforeStart);
			}
		}
	}

	@Override
	public String toString() {
		return "ZooKeeperEnsemble[" + connectString() + "]";
	}

	/** Settings of the servers to start. */
	public static final class Builder {

		private int servers = 1;

		private int tickTimeMillis = -1;

		private final Map<String, Object> serverProperties = new LinkedHashMap<>();

		private final Map<String, String> systemProperties = new LinkedHashMap<>();

		private Builder() {
		}

		/** Start an ensemble of this many servers (1: a single server). */
		public Builder servers(int count) {
			if (count < 1) {
				throw new IllegalArgumentException("At least one server, not " + count);
			}
			this.servers = count;
			return this;
		}

		/**
		 * The servers' tick time: ZooKeeper grants a session between 2 and 20 ticks,
		 * whatever the client asks for.
		 */
		public Builder tickTime(Duration tickTime) {
			this.tickTimeMillis = (int) tickTime.toMillis();
			return this;
		}

		/**
		 * A tick time with which ZooKeeper grants sessions of the given timeout, and
		 * somewhat shorter or longer ones.
		 * @param sessionTimeout the session timeout clients ask for (at least 200 ms)
		 */
		public Builder sessionTimeout(Duration sessionTimeout) {
			long millis = sessionTimeout.toMillis();
			if (millis < 200) {
				throw new IllegalArgumentException(
						"A session timeout of at least 200ms is needed, not " + sessionTimeout);
			}
			// Sessions between 2 and 20 ticks: 12 ticks leave room both ways.
			this.tickTimeMillis = (int) Math.max(50, millis / 12);
			return this;
		}

		/**
		 * Set a property of every server's configuration, as a line of {@code zoo.cfg}
		 * would (for example {@code maxSessionTimeout}). ZooKeeper turns keys it does not
		 * know (such as {@code ssl.*}) into JVM-wide {@code zookeeper.*} system
		 * properties: they are put back when the servers close.
		 */
		public Builder serverProperty(String key, Object value) {
			this.serverProperties.put(key, value);
			return this;
		}

		/**
		 * Set a system property while the servers start, for the settings ZooKeeper reads
		 * only from system properties; it is put back once they have started.
		 */
		public Builder systemPropertyWhileStarting(String key, String value) {
			this.systemProperties.put(key, value);
			return this;
		}

		/** Start the servers; returns once each of them is serving. */
		public ZooKeeperEnsemble start() throws Exception {
			Properties before = this.serverProperties.isEmpty() ? null : (Properties) System.getProperties().clone();
			Map<String, String> previous = new LinkedHashMap<>();
			this.systemProperties.forEach((key, value) -> previous.put(key, System.setProperty(key, value)));
			try {
				return startServers(before);
			}
			catch (Exception | Error ex) {
				if (before != null) {
					System.setProperties(before);
				}
				throw ex;
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

		private ZooKeeperEnsemble startServers(@Nullable Properties before) throws Exception {
			if (this.servers == 1) {
				InstanceSpec spec = spec(-1, this.tickTimeMillis, this.serverProperties);
				return new ZooKeeperEnsemble(new TestingServer(spec, true), null, List.of(spec), before);
			}
			List<InstanceSpec> specs = new ArrayList<>();
			for (int id = 1; id <= this.servers; id++) {
				specs.add(spec(id, this.tickTimeMillis, this.serverProperties));
			}
			TestingCluster cluster = new TestingCluster(specs);
			try {
				cluster.start();
			}
			catch (Exception ex) {
				cluster.close();
				throw ex;
			}
			return new ZooKeeperEnsemble(null, cluster, specs, before);
		}

	}

}
