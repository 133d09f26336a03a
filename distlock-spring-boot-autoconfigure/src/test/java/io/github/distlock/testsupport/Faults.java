package io.github.distlock.testsupport;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LockTimeoutException;

/**
 * Fault injection for tests: short sessions, so that an expiry happens within a test's
 * time, and session expiry on demand. A server stopping and restarting is
 * {@link ZooKeeperExtension#server()}'s {@code stop()} and {@code restart()}; a network
 * that stops forwarding or drops connections is a {@link TcpRelay}; ensembles are
 * curator-test's {@code TestingCluster} made of {@link #shortSessionSpec(int)} servers,
 * with {@link ZooKeeperNodes} of {@link #NODES} on them.
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

	private Faults() {
	}

	/**
	 * Spec of a server whose tick time allows short sessions (ZooKeeper grants between 2
	 * and 20 ticks).
	 * @param serverId the server's id in an ensemble, -1 for a single server
	 */
	public static InstanceSpec shortSessionSpec(int serverId) {
		return new InstanceSpec(null, -1, -1, -1, true, serverId, 250, -1);
	}

	/**
	 * Expire a client's session, as the server does when the client was silent too long.
	 */
	public static void expireSession(CuratorFramework client) throws Exception {
		client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
	}

	/**
	 * Run an acquisition that must give up, in the background, and return how long it
	 * took to give up, in ms; the future fails if the lock was acquired.
	 * @param acquisition acquires with a wait time, and releases what it acquired
	 * @param callers where it runs
	 */
	public static CompletableFuture<Long> giveUpTime(Runnable acquisition, Executor callers) {
		return CompletableFuture.supplyAsync(() -> {
			long start = System.nanoTime();
			try {
				acquisition.run();
				throw new AssertionError("acquired");
			}
			catch (LockTimeoutException ex) {
				return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
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
