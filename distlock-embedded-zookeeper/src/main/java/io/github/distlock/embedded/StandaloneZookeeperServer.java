package io.github.distlock.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.jspecify.annotations.Nullable;

/**
 * A single ZooKeeper server for development, on ZooKeeper's own
 * {@link ZooKeeperServerEmbedded}, listening on the loopback interface only: the server
 * that several local instances of an application share, run from a clone of distlock with
 *
 * <pre>
 * ./mvnw -q -pl distlock-embedded-zookeeper -am compile exec:java -Dexec.args="--port=2181 --data-dir=zookeeper-data"
 * </pre>
 *
 * Both arguments are optional: port 2181 (0 picks a free port) and a temporary data
 * directory, deleted when the server stops. Ctrl-C stops it. It is not replicated, so it
 * is no place for locks that matter.
 */
public final class StandaloneZookeeperServer implements AutoCloseable {

	/** Client port when none is given, ZooKeeper's usual one. */
	public static final int DEFAULT_PORT = 2181;

	private static final long STARTUP_TIMEOUT_MILLIS = 30_000;

	// Not named logback.xml, so that it never configures an application that has this
	// module as a dependency.
	private static final String LOGBACK_CONFIGURATION = "io/github/distlock/embedded/standalone-server-logback.xml";

	private final ZooKeeperServerEmbedded server;

	private final Path baseDir;

	private final Path dataDir;

	private final int port;

	private StandaloneZookeeperServer(ZooKeeperServerEmbedded server, Path baseDir, Path dataDir, int port) {
		this.server = server;
		this.baseDir = baseDir;
		this.dataDir = dataDir;
		this.port = port;
	}

	/**
	 * Run a server until the JVM stops.
	 * @param args {@code --port=<port>} and {@code --data-dir=<directory>}, both optional
	 * @throws Exception if the server did not start
	 */
	public static void main(String[] args) throws Exception {
		int port = DEFAULT_PORT;
		Path dataDir = null;
		for (String arg : args) {
			if (arg.startsWith("--port=")) {
				port = parsePort(arg.substring("--port=".length()));
			}
			else if (arg.startsWith("--data-dir=")) {
				dataDir = Path.of(arg.substring("--data-dir=".length()));
			}
			else {
				throw new IllegalArgumentException(
						"Unknown argument '" + arg + "': expected --port=<port> or --data-dir=<directory>");
			}
		}
		if (System.getProperty("logback.configurationFile") == null) {
			System.setProperty("logback.configurationFile", LOGBACK_CONFIGURATION);
		}
		StandaloneZookeeperServer server = start(port, dataDir);
		Runtime.getRuntime().addShutdownHook(new Thread(server::close, "zookeeper-shutdown"));
		System.out.println("ZooKeeper listening on " + server.getConnectString() + ", data in "
				+ server.getDataDir().toAbsolutePath() + " (Ctrl-C stops it). Point applications at it with "
				+ "distlock.zookeeper.connect-string=" + server.getConnectString());
		// The server's own threads serve clients; this one only waits for Ctrl-C.
		new CountDownLatch(1).await();
	}

	/**
	 * Start a server and wait until it serves clients.
	 * @param port the client port; 0 picks a free port
	 * @param dataDir directory for snapshots and transaction logs, kept after
	 * {@link #close()}; {@code null} for a temporary directory deleted on close
	 * @return the running server
	 * @throws Exception if the server did not start, for example because the port is in
	 * use
	 */
	public static StandaloneZookeeperServer start(int port, @Nullable Path dataDir) throws Exception {
		int clientPort = (port != 0) ? checkFree(port) : findFreePort();
		Path baseDir = Files.createTempDirectory("distlock-zookeeper-");
		Path data;
		ZooKeeperServerEmbedded server;
		try {
			data = (dataDir != null) ? Files.createDirectories(dataDir) : baseDir.resolve("data");
			Properties configuration = new Properties();
			configuration.setProperty("clientPort", Integer.toString(clientPort));
			configuration.setProperty("clientPortAddress", InetAddress.getLoopbackAddress().getHostAddress());
			configuration.setProperty("dataDir", data.toAbsolutePath().toString());
			configuration.setProperty("tickTime", "2000");
			configuration.setProperty("admin.enableServer", "false");
			server = ZooKeeperServerEmbedded.builder()
				.baseDir(baseDir)
				.configuration(configuration)
				.exitHandler(ExitHandler.LOG_ONLY)
				.build();
		}
		catch (Exception ex) {
			deleteRecursively(baseDir);
			throw ex;
		}
		StandaloneZookeeperServer standalone = new StandaloneZookeeperServer(server, baseDir, data, clientPort);
		try {
			server.start(STARTUP_TIMEOUT_MILLIS);
		}
		catch (Exception ex) {
			standalone.close();
			throw ex;
		}
		return standalone;
	}

	/**
	 * Return the connect string of the server.
	 * @return the connect string, such as {@code 127.0.0.1:2181}
	 */
	public String getConnectString() {
		return InetAddress.getLoopbackAddress().getHostAddress() + ":" + this.port;
	}

	/**
	 * Return the client port of the server.
	 * @return the port
	 */
	public int getPort() {
		return this.port;
	}

	/**
	 * Return the directory of the server's snapshots and transaction logs.
	 * @return the data directory
	 */
	public Path getDataDir() {
		return this.dataDir;
	}

	/**
	 * Stop the server and delete its temporary directory (not a data directory given to
	 * {@link #start}).
	 */
	@Override
	public void close() {
		this.server.close();
		deleteRecursively(this.baseDir);
	}

	private static int parsePort(String value) {
		try {
			int port = Integer.parseInt(value);
			if (port >= 0 && port <= 65535) {
				return port;
			}
		}
		catch (NumberFormatException ex) {
			// Reported below
		}
		throw new IllegalArgumentException("--port must be a number between 0 and 65535, not '" + value + "'");
	}

	// ZooKeeper only reports a port in use by timing out, so look first.
	private static int checkFree(int port) {
		try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
			return port;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot listen on port " + port + " (" + ex.getMessage()
					+ "): give another one with --port, or 0 for any free port", ex);
		}
	}

	private static int findFreePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("No free port for the ZooKeeper server", ex);
		}
	}

	private static void deleteRecursively(Path directory) {
		if (!Files.exists(directory)) {
			return;
		}
		try (Stream<Path> paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// A temporary directory left behind is no reason to fail a stop.
		}
	}

}
