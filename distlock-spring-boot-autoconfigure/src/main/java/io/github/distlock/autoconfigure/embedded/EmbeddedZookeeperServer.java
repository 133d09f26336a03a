package io.github.distlock.autoconfigure.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;
import org.springframework.util.FileSystemUtils;

/**
 * A single ZooKeeper server running inside the application, on ZooKeeper's own
 * {@link ZooKeeperServerEmbedded}, listening on the loopback interface only. For
 * development and tests: it is not replicated, so it is no place for locks that matter.
 */
public final class EmbeddedZookeeperServer implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(EmbeddedZookeeperServer.class);

	private static final long STARTUP_TIMEOUT_MILLIS = 30_000;

	// Declared "provided" by ZooKeeper's server, yet needed by every server: its metrics
	// (ServerMetrics builds percentile counters on metrics-core whatever the provider)
	// and its snapshot streams (SnapStream refers to Snappy's streams whatever the
	// compression). Without them it does not start and only times out.
	// distlock-embedded-zookeeper brings both.
	private static final Map<String, String> SERVER_DEPENDENCIES = Map.of("com.codahale.metrics.Reservoir",
			"io.dropwizard.metrics:metrics-core", "org.xerial.snappy.SnappyInputStream",
			"org.xerial.snappy:snappy-java");

	private final int requestedPort;

	private final @Nullable Path dataDir;

	private @Nullable ZooKeeperServerEmbedded server;

	private @Nullable Path baseDir;

	private int port;

	/**
	 * Create a server that is not started yet.
	 * @param port the client port; 0 picks a free port
	 * @param dataDir directory for snapshots and transaction logs, kept after
	 * {@link #close()}; {@code null} for a temporary directory deleted on close
	 */
	public EmbeddedZookeeperServer(int port, @Nullable Path dataDir) {
		Assert.isTrue(port >= 0 && port <= 65535, () -> "Port must be between 0 and 65535, not " + port);
		this.requestedPort = port;
		this.dataDir = dataDir;
	}

	/**
	 * Start the server and wait until it serves clients.
	 * @throws IllegalStateException if the server did not start, for example because the
	 * port is in use
	 */
	public synchronized void start() {
		Assert.state(this.server == null, "Embedded ZooKeeper server already started");
		checkServerDependencies(EmbeddedZookeeperServer.class.getClassLoader());
		int port = (this.requestedPort != 0) ? checkFree(this.requestedPort) : findFreePort();
		try {
			this.baseDir = Files.createTempDirectory("distlock-zookeeper-");
			Path dataDir = (this.dataDir != null) ? Files.createDirectories(this.dataDir)
					: this.baseDir.resolve("data");
			Properties configuration = new Properties();
			configuration.setProperty("clientPort", Integer.toString(port));
			configuration.setProperty("clientPortAddress", InetAddress.getLoopbackAddress().getHostAddress());
			configuration.setProperty("dataDir", dataDir.toAbsolutePath().toString());
			configuration.setProperty("tickTime", "2000");
			configuration.setProperty("admin.enableServer", "false");
			ZooKeeperServerEmbedded server = ZooKeeperServerEmbedded.builder()
				.baseDir(this.baseDir)
				.configuration(configuration)
				.exitHandler(ExitHandler.LOG_ONLY)
				.build();
			this.server = server;
			this.port = port;
			startOnDaemonThread(server);
		}
		catch (Exception ex) {
			close();
			throw new EmbeddedZookeeperException("Embedded ZooKeeper server did not start on port " + port + ": " + ex,
					"Check the log above for the server's own error, set distlock.zookeeper.embedded.port to 0 for "
							+ "any free port, or set distlock.zookeeper.embedded.enabled=false and point "
							+ "distlock.zookeeper.connect-string at a ZooKeeper ensemble.",
					ex);
		}
		logger.warn("Started an embedded ZooKeeper server at " + getConnectString()
				+ " (distlock.zookeeper.embedded.enabled=true). It is for development only: "
				+ "a single in-process server gives no protection when this application stops.");
	}

	/**
	 * Return the connect string of the running server.
	 * @return the connect string, such as {@code 127.0.0.1:2181}
	 */
	public String getConnectString() {
		return InetAddress.getLoopbackAddress().getHostAddress() + ":" + getPort();
	}

	/**
	 * Return the client port of the running server.
	 * @return the port
	 */
	public synchronized int getPort() {
		Assert.state(this.server != null, "Embedded ZooKeeper server not started");
		return this.port;
	}

	/**
	 * Stop the server and delete its temporary directory. Does nothing when the server is
	 * not running.
	 */
	@Override
	public synchronized void close() {
		ZooKeeperServerEmbedded server = this.server;
		this.server = null;
		if (server != null) {
			server.close();
		}
		Path baseDir = this.baseDir;
		this.baseDir = null;
		if (baseDir != null) {
			try {
				FileSystemUtils.deleteRecursively(baseDir);
			}
			catch (IOException ex) {
				logger.debug("Could not delete " + baseDir, ex);
			}
		}
	}

	/**
	 * Start the server from a daemon thread and wait for it. Every thread ZooKeeper's
	 * server starts (its main runner, session tracker, request processors) inherits the
	 * daemon flag of the thread that creates it, and none sets its own: started from the
	 * application's main thread, they kept the JVM alive after a non-web application's
	 * runners had finished, so a batch job or command-line tool never exited. As daemons
	 * they leave the JVM free to end; Spring's shutdown hook then closes the context,
	 * which stops the server.
	 */
	private static void startOnDaemonThread(ZooKeeperServerEmbedded server) throws Exception {
		AtomicReference<@Nullable Exception> failure = new AtomicReference<>();
		Thread starter = new Thread(() -> {
			try {
				server.start(STARTUP_TIMEOUT_MILLIS);
			}
			catch (Exception ex) {
				failure.set(ex);
			}
		}, "distlock-zookeeper-start");
		starter.setDaemon(true);
		starter.start();
		starter.join();
		Exception ex = failure.get();
		if (ex != null) {
			throw ex;
		}
	}

	static void checkServerDependencies(@Nullable ClassLoader classLoader) {
		SERVER_DEPENDENCIES.forEach((className, dependency) -> {
			if (!ClassUtils.isPresent(className, classLoader)) {
				throw new EmbeddedZookeeperException(
						"distlock.zookeeper.embedded.enabled is true, but the embedded " + "ZooKeeper server needs "
								+ dependency + " on the class path (" + className + " is missing)",
						"Add the dependency io.github.distlock:distlock-embedded-zookeeper, which brings what the "
								+ "server needs, or set distlock.zookeeper.embedded.enabled=false and point "
								+ "distlock.zookeeper.connect-string at a ZooKeeper ensemble.");
			}
		});
	}

	// ZooKeeper only reports a port in use by timing out, so look first.
	private static int checkFree(int port) {
		try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
			return port;
		}
		catch (IOException ex) {
			throw new EmbeddedZookeeperException(
					"Embedded ZooKeeper server cannot listen on port " + port + " (" + ex.getMessage() + ")",
					"Set distlock.zookeeper.embedded.port to a free port, or to 0 for any free port, or stop "
							+ "whatever listens on port " + port + " (perhaps another instance of this application).");
		}
	}

	private static int findFreePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("No free port for the embedded ZooKeeper server", ex);
		}
	}

}
