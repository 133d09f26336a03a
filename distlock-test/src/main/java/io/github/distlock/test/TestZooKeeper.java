package io.github.distlock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LockState;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperEnsemble;

/**
 * A real ZooKeeper server for tests (curator-test's {@link TestingServer}, in the test's
 * JVM, no Docker), the nodes connected to it, and faults on demand aimed at one node or
 * at all of them. Every node connects through a {@link TcpRelay} of its own.
 * <p>
 * Each fault returns once it has happened, as the node saw it, so tests need no sleeps:
 * <ul>
 * <li>{@link #expireSession(DistlockNode)}: the server ends the node's session; returns
 * when the node has seen {@code LOST} and the old session is gone on the server;</li>
 * <li>{@link #cutOff(DistlockNode, Duration)}: the node's connection is cut for a while;
 * returns when the node has seen {@code SUSPENDED} (a cut longer than the session timeout
 * costs the session);</li>
 * <li>{@link #stop()} and {@link #restart()}: the server goes away and comes back;</li>
 * <li>{@link #slowDown(DistlockNode, Duration)}: the node's network gets slow.</li>
 * </ul>
 * Obtain one from {@link DistlockZooKeeperExtension} (JUnit 5) or, in a Spring Boot test,
 * inject it where the test class is annotated with
 * {@link AutoConfigureDistlockZooKeeper @AutoConfigureDistlockZooKeeper}.
 */
public final class TestZooKeeper implements AutoCloseable {

	/** Session timeout of the nodes unless a test asks for another. */
	public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(3);

	private final Duration sessionTimeout;

	private final ZooKeeperEnsemble server;

	private final List<DistlockNode> nodes = new CopyOnWriteArrayList<>();

	private final ScheduledExecutorService timer;

	private int nextNode;

	private volatile boolean running;

	private TestZooKeeper(Duration sessionTimeout, ZooKeeperEnsemble server) {
		this.sessionTimeout = sessionTimeout;
		this.server = server;
		this.running = true;
		this.timer = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "distlock-test-timer");
			thread.setDaemon(true);
			return thread;
		});
	}

	/**
	 * Start a server whose tick time lets ZooKeeper grant the given session timeout.
	 * @param sessionTimeout the session timeout of the nodes
	 * @return the running server
	 */
	public static TestZooKeeper start(Duration sessionTimeout) {
		ZooKeeperEnsemble.Builder server = ZooKeeperEnsemble.builder().sessionTimeout(sessionTimeout);
		try {
			return new TestZooKeeper(sessionTimeout, server.start());
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not start a ZooKeeper server for tests", ex);
		}
	}

	/** Start a server for sessions of {@link #DEFAULT_SESSION_TIMEOUT}. */
	public static TestZooKeeper start() {
		return start(DEFAULT_SESSION_TIMEOUT);
	}

	/** The connect string of the server itself (not through a relay). */
	public String getConnectString() {
		return this.server.connectString();
	}

	/** The port of the server. */
	public int getPort() {
		return this.server.port();
	}

	/** The session timeout the nodes ask for. */
	public Duration getSessionTimeout() {
		return this.sessionTimeout;
	}

	/** Whether the server is running (not {@link #stop() stopped}). */
	public boolean isRunning() {
		return this.running;
	}

	// Nodes

	/**
	 * Start application contexts of the given application, each a node with its own
	 * session, relay and {@link LockRecorder} (a bean of the node), and wait until each
	 * is connected.
	 * @param count how many
	 * @param application builds the application of the node with the given index (from
	 * 1), such as {@code (index) -> new SpringApplicationBuilder(MyApplication.class)}
	 * @param args command line arguments of every node, such as
	 * {@code --my.property=value}; the kit adds those that point the node at this server
	 * (its connect string, session timeout, no embedded server) and
	 * {@code --server.port=0}
	 * @return the started nodes, to close when done (the extension closes them too)
	 */
	public DistlockNodes startNodes(int count, IntFunction<SpringApplicationBuilder> application, String... args) {
		LockRecorder merged = LockRecorder.merged("nodes");
		List<DistlockNode> started = new ArrayList<>();
		try {
			for (int index = 1; index <= count; index++) {
				started.add(startNode(application.apply(index), merged, args));
			}
		}
		catch (RuntimeException ex) {
			started.forEach(DistlockNode::close);
			throw ex;
		}
		return new DistlockNodes(started, merged);
	}

	/**
	 * Start application contexts of the given application class (a
	 * {@code @SpringBootApplication}, usually) as nodes.
	 * @param count how many
	 * @param application the application class
	 * @param args command line arguments of every node
	 * @return the started nodes
	 */
	public DistlockNodes startNodes(int count, Class<?> application, String... args) {
		return startNodes(count, (index) -> new SpringApplicationBuilder(application), args);
	}

	/**
	 * Start application contexts of the given application class as nodes, each built
	 * further by the given function: to give the nodes test doubles, as
	 * {@code (builder) -> builder.sources(Doubles.class)} (a {@code @TestConfiguration}
	 * with {@code @Primary} beans) or
	 * {@code (builder) -> builder.initializers(TestBeans.primary(Clock.class, clock))}
	 * (an object of the test, shared by every node), or other properties or profiles.
	 * @param count how many
	 * @param application the application class
	 * @param customizer builds on each node's builder, and returns it
	 * @param args command line arguments of every node
	 * @return the started nodes
	 */
	public DistlockNodes startNodes(int count, Class<?> application, UnaryOperator<SpringApplicationBuilder> customizer,
			String... args) {
		return startNodes(count, (index) -> customizer.apply(new SpringApplicationBuilder(application)), args);
	}

	/**
	 * Start one application context as a node.
	 * @param application the application to start
	 * @param args its command line arguments; the kit adds those that point the node at
	 * this server and {@code --server.port=0}
	 * @return the node, connected
	 */
	public DistlockNode startNode(SpringApplicationBuilder application, String... args) {
		return startNode(application, null, args);
	}

	private DistlockNode startNode(SpringApplicationBuilder application, @Nullable LockRecorder merged,
			String... args) {
		String name = nextNodeName();
		TcpRelay relay = new TcpRelay(getPort());
		ConfigurableApplicationContext context;
		try {
			// Arguments win over the application's own configuration files.
			List<String> arguments = new ArrayList<>(List.of("--server.port=0"));
			arguments.addAll(List.of(args));
			arguments.addAll(
					List.of(DistlockZooKeeperProperties.asArguments(relay.getConnectString(), this.sessionTimeout)));
			application.initializers(RecorderRegistrar.initializer(new LockRecorder(name, merged)));
			context = application.run(arguments.toArray(String[]::new));
		}
		catch (RuntimeException ex) {
			relay.close();
			throw ex;
		}
		DistlockNode node = new DistlockNode(name, relay, context, true);
		register(node);
		awaitConnected(node);
		return node;
	}

	/**
	 * A node without an application context: a client with a session of its own, and
	 * distlock's locks on it (default wait time 5 s, application name {@code test}),
	 * followed by a {@link DistlockNode#getRecorder() recorder} of its own.
	 * @param namespace the namespace of the client, as
	 * {@code distlock.zookeeper.namespace} of the application under test
	 */
	public DistlockNode newNode(String namespace) {
		String name = nextNodeName();
		TcpRelay relay = new TcpRelay(getPort());
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(relay.getConnectString())
			.namespace(namespace)
			.sessionTimeoutMs((int) this.sessionTimeout.toMillis())
			.connectionTimeoutMs((int) this.sessionTimeout.toMillis())
			.retryPolicy(new ExponentialBackoffRetry(50, 3, 500))
			.build();
		client.start();
		CuratorLocks locks = CuratorLocks.builder(client)
			.defaultWaitTime(Duration.ofSeconds(5))
			.applicationName("test")
			.build();
		LockRecorder recorder = new LockRecorder(name, null);
		locks.addEventListener(recorder);
		DistlockNode node = new DistlockNode(name, relay, client, locks, recorder);
		register(node);
		awaitConnected(node);
		return node;
	}

	/** A node without an application context, in distlock's default namespace. */
	public DistlockNode newNode() {
		return newNode(DistlockZooKeeperProperties.DEFAULT_NAMESPACE);
	}

	/** A relay to this server for the node of a Spring Boot test's own context. */
	DistlockNode contextNode(ConfigurableApplicationContext context, TcpRelay relay) {
		DistlockNode node = new DistlockNode(nextNodeName(), relay, context, false);
		register(node);
		return node;
	}

	private synchronized String nextNodeName() {
		return "node-" + (++this.nextNode);
	}

	private void register(DistlockNode node) {
		this.nodes.add(node);
	}

	/** The nodes connected to this server that are not closed. */
	public List<DistlockNode> getNodes() {
		this.nodes.removeIf(DistlockNode::isClosed);
		return List.copyOf(this.nodes);
	}

	/**
	 * Close the nodes started by this server's kit (not a Spring Boot test's own
	 * context).
	 */
	public void closeNodes() {
		for (DistlockNode node : this.nodes) {
			if (node.isOwned()) {
				node.close();
			}
		}
		this.nodes.removeIf(DistlockNode::isClosed);
	}

	// Faults

	/**
	 * Expire the node's session, as the server does when the node was silent too long:
	 * the server ends the session (its ephemeral nodes, so its locks, are gone at once),
	 * and the node learns of it when it reconnects. Returns when the node has seen
	 * {@code LOST}, its locks have seen the loss, and the old session is gone on the
	 * server; the node then starts a new session.
	 * @param node the node
	 * @return the id of the session that was ended
	 */
	public long expireSession(DistlockNode node) {
		int mark = node.stateMark();
		ZooKeeper zooKeeper = zooKeeperOf(node);
		long session = zooKeeper.getSessionId();
		closeSessionOnServer(session, zooKeeper.getSessionPasswd(), zooKeeper.getSessionTimeout());
		// The node would learn of it at its next ping; a new connection learns at once.
		node.getRelay().dropConnections();
		node.awaitState(mark, (state) -> state == ConnectionState.LOST, "LOST", faultTimeout());
		awaitLocks(node, (held) -> held.state() != LockState.HELD && held.state() != LockState.IN_DOUBT,
				"its held locks lost");
		await(() -> !hasSession(session), "session 0x" + Long.toHexString(session) + " gone on the server");
		return session;
	}

	/** Expire the sessions of every node, one after the other. */
	public void expireSessions() {
		getNodes().forEach(this::expireSession);
	}

	private void closeSessionOnServer(long session, byte[] password, int timeout) {
		try {
			Faults.endSessionOnServer(getConnectString(), session, password, timeout, faultTimeout());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		catch (java.io.IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Cut the node off the server for the given time: its connection closes and new ones
	 * are refused, then it may reconnect. Returns when the node has seen
	 * {@code SUSPENDED}; the node is let back by a timer, the given time after the cut. A
	 * cut longer than the session timeout costs the node its session ({@code LOST} once
	 * it is back).
	 * @param node the node
	 * @param duration how long the node stays cut off
	 */
	public void cutOff(DistlockNode node, Duration duration) {
		cutOff(node);
		this.timer.schedule(() -> node.getRelay().restore(), duration.toNanos(), TimeUnit.NANOSECONDS);
	}

	/**
	 * Cut the node off the server until {@link #reconnect(DistlockNode)}. Returns when
	 * the node has seen {@code SUSPENDED}.
	 */
	public void cutOff(DistlockNode node) {
		int mark = node.stateMark();
		node.getRelay().cut();
		awaitSuspended(node, mark);
	}

	/**
	 * Let a node that was cut off reconnect, and return when it has reconnected
	 * ({@code RECONNECTED}, after {@code LOST} if it lost its session meanwhile).
	 */
	public void reconnect(DistlockNode node) {
		node.getRelay().heal();
		awaitConnected(node);
	}

	/**
	 * Make the node's network slow: everything it sends or receives takes the given time
	 * longer, each way. Returns when a round trip of the node to the server has taken at
	 * least twice that time.
	 * @param node the node
	 * @param oneWay the added delay per direction; zero to make it fast again
	 */
	public void slowDown(DistlockNode node, Duration oneWay) {
		node.getRelay().setLatency(oneWay);
		if (oneWay.isZero()) {
			return;
		}
		// Bytes already buffered go at the old speed: the second round trip is all slow.
		for (int trip = 0; trip < 2; trip++) {
			long start = System.nanoTime();
			try {
				node.getClient().checkExists().forPath("/");
			}
			catch (Exception ex) {
				throw new IllegalStateException("Node " + node.getName() + " could not reach the server", ex);
			}
			if (trip == 1 && System.nanoTime() - start < 2 * oneWay.toNanos()) {
				throw new AssertionError("Node " + node.getName() + "'s round trip was not slowed down");
			}
		}
	}

	/**
	 * Stop the server, keeping its data. Returns when every connected node has seen
	 * {@code SUSPENDED} (and its locks the suspension).
	 */
	public void stop() {
		List<DistlockNode> connected = getNodes().stream().filter(DistlockNode::isConnected).toList();
		int[] marks = connected.stream().mapToInt(DistlockNode::stateMark).toArray();
		try {
			this.server.stop();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not stop the ZooKeeper server", ex);
		}
		this.running = false;
		for (int i = 0; i < connected.size(); i++) {
			awaitSuspended(connected.get(i), marks[i]);
		}
	}

	/**
	 * Start the stopped server again, on the same port with the same data. Returns when
	 * every node that is not cut off is connected again (sessions younger than the
	 * session timeout survive).
	 */
	public void restart() {
		try {
			this.server.restart();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not restart the ZooKeeper server", ex);
		}
		this.running = true;
		getNodes().stream().filter((node) -> !node.getRelay().isCut()).forEach(this::awaitConnected);
	}

	/**
	 * Undo every fault: the server runs, and every node's relay forwards at full speed
	 * again. Returns when every node is connected.
	 */
	public void heal() {
		for (DistlockNode node : getNodes()) {
			node.getRelay().heal();
		}
		if (!this.running) {
			restart();
		}
		getNodes().forEach(this::awaitConnected);
	}

	private void awaitSuspended(DistlockNode node, int mark) {
		node.awaitState(mark, (state) -> state == ConnectionState.SUSPENDED || state == ConnectionState.LOST,
				"SUSPENDED", faultTimeout());
		awaitLocks(node, (held) -> held.state() != LockState.HELD, "its held locks in doubt or lost");
	}

	/**
	 * Wait until the node is connected, such as after a
	 * {@link #cutOff(DistlockNode, Duration) cut-off} for a given time has ended.
	 * @param node the node
	 */
	public void awaitConnected(DistlockNode node) {
		// Connected, and the node's listeners have been told so: the client's flag is set
		// before the state is reported.
		await(() -> node.isConnected() && reportedConnected(node), "node " + node.getName() + " connected");
	}

	private static boolean reportedConnected(DistlockNode node) {
		List<ConnectionState> states = node.getConnectionStates();
		if (states.isEmpty()) {
			return true;
		}
		ConnectionState last = states.get(states.size() - 1);
		return last == ConnectionState.CONNECTED || last == ConnectionState.RECONNECTED;
	}

	private void awaitLocks(DistlockNode node, java.util.function.Predicate<HeldLock> condition, String description) {
		await(() -> node.getLocks().heldLocks().stream().allMatch(condition),
				"node " + node.getName() + " with " + description);
	}

	private void await(BooleanSupplier condition, String description) {
		long deadline = System.nanoTime() + faultTimeout().toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new AssertionError("Timed out after " + faultTimeout() + " waiting for " + description);
			}
			try {
				Thread.sleep(10);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted waiting for " + description, ex);
			}
		}
	}

	/** How long a fault may take to show: a few session timeouts. */
	private Duration faultTimeout() {
		return this.sessionTimeout.multipliedBy(4).plusSeconds(10);
	}

	private static ZooKeeper zooKeeperOf(DistlockNode node) {
		try {
			return node.getClient().getZookeeperClient().getZooKeeper();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Node " + node.getName() + " has no ZooKeeper handle", ex);
		}
	}

	// What the server holds

	/**
	 * Whether the server knows the session (it is open, and has not expired or been
	 * closed).
	 * @param sessionId the session's id
	 */
	public boolean hasSession(long sessionId) {
		return this.server.hasSession(sessionId);
	}

	/**
	 * Every node path on the server but ZooKeeper's own ({@code /zookeeper}), parents
	 * first.
	 */
	public List<String> getPaths() {
		try (CuratorFramework client = rootClient()) {
			List<String> paths = new ArrayList<>();
			collect(client, "/", paths);
			return paths;
		}
	}

	/**
	 * Every node path below the top-level nodes (the applications' namespaces): the lock
	 * nodes and their parents. Empty after {@link #clean()}.
	 */
	public List<String> getLockPaths() {
		return getPaths().stream().filter((path) -> path.indexOf('/', 1) > 0).toList();
	}

	/**
	 * Delete every node below the top-level ones, so that no lock of one test is left for
	 * the next. The top-level nodes, the namespaces of the applications, stay: a
	 * connected node may be creating its namespace at this moment.
	 */
	public void clean() {
		if (!this.running) {
			return;
		}
		try (CuratorFramework client = rootClient()) {
			for (String namespace : client.getChildren().forPath("/")) {
				if (namespace.equals("zookeeper")) {
					continue;
				}
				for (String child : Faults.children(client, "/" + namespace)) {
					try {
						client.delete().deletingChildrenIfNeeded().forPath("/" + namespace + "/" + child);
					}
					catch (KeeperException.NoNodeException ex) {
						// gone already
					}
				}
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not clean the ZooKeeper server", ex);
		}
	}

	private void collect(CuratorFramework client, String path, List<String> paths) {
		List<String> children;
		try {
			children = client.getChildren().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return;
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not read " + path, ex);
		}
		for (String child : children.stream().sorted().toList()) {
			String childPath = path.equals("/") ? "/" + child : path + "/" + child;
			if (childPath.equals("/zookeeper")) {
				continue;
			}
			paths.add(childPath);
			collect(client, childPath, paths);
		}
	}

	private CuratorFramework rootClient() {
		CuratorFramework client = CuratorFrameworkFactory.newClient(getConnectString(),
				(int) this.sessionTimeout.toMillis(), (int) faultTimeout().toMillis(),
				new ExponentialBackoffRetry(50, 3, 500));
		client.start();
		try {
			if (!client.blockUntilConnected((int) faultTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("Could not connect to the ZooKeeper server " + getConnectString());
			}
		}
		catch (InterruptedException ex) {
			client.close();
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
		return client;
	}

	/** Close every node the kit started, then stop the server and delete its data. */
	@Override
	public void close() {
		try {
			closeNodes();
		}
		finally {
			this.timer.shutdownNow();
			try {
				this.server.close();
			}
			catch (java.io.IOException ex) {
				throw new IllegalStateException("Could not close the ZooKeeper server", ex);
			}
		}
	}

	@Override
	public String toString() {
		return "TestZooKeeper[" + getConnectString() + ", session timeout " + this.sessionTimeout + "]";
	}

}
