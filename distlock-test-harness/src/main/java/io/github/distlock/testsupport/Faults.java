package io.github.distlock.testsupport;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LockTimeoutException;

/**
 * Fault injection for tests: short sessions, so that an expiry happens within a test's
 * time, and session expiry on demand. A server stopping and restarting is
 * {@link ZooKeeperExtension#server()}'s {@code stop()} and {@code restart()}; a network
 * that stops forwarding or drops connections is a
 * {@link io.github.distlock.relay.TcpRelay}; ensembles are
 * {@link #shortSessionServers(int)}, with {@link ZooKeeperNodes} of {@link #NODES} on
 * them.
 */
public final class Faults {

	/** Namespace of the fault tests' nodes. */
	public static final String NAMESPACE = "distlock-faults";

	/** Session timeout asked for; the servers' tick time lets ZooKeeper grant it. */
	public static final int SESSION_TIMEOUT_MS = 3000;

	/**
	 * Options of the fault tests' nodes: short sessions, application {@code faults},
	 * {@link ConnectionLossPolicy#SUSPENDED}.
	 */
	public static final NodeOptions NODES = new NodeOptions(NAMESPACE, Duration.ofMillis(SESSION_TIMEOUT_MS),
			Duration.ofSeconds(2), "faults", ConnectionLossPolicy.SUSPENDED, Duration.ofSeconds(5));

	/**
	 * Tick time of the fault tests' servers: ZooKeeper grants sessions between 2 and 20
	 * ticks, so {@link #SESSION_TIMEOUT_MS} is granted.
	 */
	public static final Duration TICK_TIME = Duration.ofMillis(250);

	private Faults() {
	}

	/**
	 * Start servers whose tick time allows short sessions: one, or an ensemble.
	 * @param servers how many
	 */
	public static ZooKeeperEnsemble shortSessionServers(int servers) throws Exception {
		return ZooKeeperEnsemble.builder().servers(servers).tickTime(TICK_TIME).start();
	}

	/**
	 * Expire a client's session, as the server does when the client was silent too long.
	 */
	public static void expireSession(CuratorFramework client) throws Exception {
		client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
	}

	/**
	 * End a client's session on the server, as the server does when the session times
	 * out: a second handle attaches to the session and closes it, so the server deletes
	 * the session's ephemeral nodes at once and watchers of them fire. The client itself
	 * learns of it only when it next talks to the server (its ping, at the latest after a
	 * third of the session timeout), and Curator then reports the session LOST and starts
	 * a new one. Returns once the session is gone on the server.
	 * @return the id of the session that was ended
	 */
	public static long killSession(CuratorFramework client) throws Exception {
		return killSession(client, client.getZookeeperClient().getCurrentConnectionString());
	}

	/**
	 * End a client's session on the server, as {@link #killSession(CuratorFramework)}
	 * does, attaching through the given address: the server's own when the client's path
	 * to it is a paused relay, so that the client learns nothing until it times out.
	 * @return the id of the session that was ended
	 */
	public static long killSession(CuratorFramework client, String connectString) throws Exception {
		ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
		long session = zooKeeper.getSessionId();
		endSessionOnServer(connectString, session, zooKeeper.getSessionPasswd(), zooKeeper.getSessionTimeout(),
				Duration.ofSeconds(10));
		return session;
	}

	/**
	 * End a session on the server, as the server does when the session times out: a
	 * second handle attaches to the session and closes it. Returns once the server has
	 * closed it.
	 * @param connectString where the server is
	 * @param session the session's id
	 * @param password the session's password
	 * @param sessionTimeoutMs the session's timeout
	 * @param attachWithin how long attaching to the session may take
	 */
	public static void endSessionOnServer(String connectString, long session, byte[] password, int sessionTimeoutMs,
			Duration attachWithin) throws InterruptedException, java.io.IOException {
		CountDownLatch connected = new CountDownLatch(1);
		ZooKeeper intruder = new ZooKeeper(connectString, sessionTimeoutMs, (event) -> {
			if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
				connected.countDown();
			}
		}, session, password);
		try {
			if (!connected.await(attachWithin.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("Could not attach to session 0x" + Long.toHexString(session));
			}
		}
		finally {
			// Closing a handle closes its session on the server.
			intruder.close();
		}
	}

	/**
	 * Run an acquisition that must give up, in the background, and return how long it
	 * waited when it gave up, in ms, as the engine measured it at that moment (invariant
	 * 4 of docs/failure-model.md is about the acquisition's end, not about when a thread
	 * of a loaded machine is scheduled again to learn of it); the future fails if the
	 * lock was acquired.
	 * @param acquisition acquires with a wait time, and releases what it acquired
	 * @param callers where it runs
	 */
	public static CompletableFuture<Long> giveUpTime(Runnable acquisition, Executor callers) {
		return CompletableFuture.supplyAsync(() -> {
			try {
				acquisition.run();
				throw new AssertionError("acquired");
			}
			catch (LockTimeoutException ex) {
				Duration waited = ex.getWaited()
					.orElseThrow(() -> new AssertionError("the engine did not measure its wait", ex));
				return waited.toMillis();
			}
		}, callers);
	}

	/** The children of a node, or none if it does not exist. */
	public static java.util.List<String> children(CuratorFramework client, String path) throws Exception {
		try {
			return client.getChildren().forPath(path);
		}
		catch (org.apache.zookeeper.KeeperException.NoNodeException ex) {
			return java.util.List.of();
		}
	}

}
