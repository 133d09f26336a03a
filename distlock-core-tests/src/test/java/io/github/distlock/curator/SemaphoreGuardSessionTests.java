package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A semaphore's lease is taken only in the session that holds the semaphore's guard
 * (Curator's {@code InterProcessSemaphoreV2} protocol): a lease made in another session
 * does not count, and the acquisition starts over at the guard.
 */
class SemaphoreGuardSessionTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	/**
	 * The guard is held, the lease's create is lost with the connection and the session
	 * ends: back in a new session that holds no guard, the lease is not made again before
	 * the guard is taken again there (the position whose create was lost asks its
	 * acquisition, which starts over at the guard). Made again under the old guard, the
	 * lease was refused, yet its node stayed: the permit was taken for the session's
	 * life.
	 */
	@Test
	void leaseMadeInASessionWithoutTheGuardIsMadeAgainUnderANewGuard() throws Exception {
		AtomicReference<CuratorFramework> victim = new AtomicReference<>();
		AtomicBoolean cut = new AtomicBoolean();
		String server = this.zookeeper.connectString();
		TcpRelay.Tap tap = (direction, bytes, length, readNanos, writeNanos) -> {
			if (direction == TcpRelay.Direction.TO_SERVER
					&& new String(bytes, 0, length, StandardCharsets.ISO_8859_1).contains("/leases/_c_")
					&& cut.compareAndSet(false, true)) {
				// The lease's create never reaches the server, and the session ends.
				try {
					Faults.killSession(victim.get(), server);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
				throw new IllegalStateException("connection cut before the lease's create");
			}
		};
		CuratorFramework observer = this.zookeeper.newClient();
		AtomicInteger guards = new AtomicInteger();
		List<String> leasesMade = new CopyOnWriteArrayList<>();
		observer.watchers().add().withMode(AddWatchMode.PERSISTENT_RECURSIVE).usingWatcher((Watcher) (event) -> {
			if (event.getType() == Watcher.Event.EventType.NodeCreated && event.getPath().contains("/locks/")) {
				guards.incrementAndGet();
			}
			if (event.getType() == Watcher.Event.EventType.NodeCreated && event.getPath().contains("/leases/")) {
				leasesMade.add(ZKPaths.getNodeFromPath(event.getPath()));
			}
		}).forPath("/semaphore/quota");
		try (TcpRelay relay = new TcpRelay(this.zookeeper.server().getPort(), () -> tap)) {
			// No retries: the engine is told the create was lost, and makes it again.
			CuratorFramework client = this.zookeeper.nodes()
				.register(CuratorFrameworkFactory.builder()
					.connectString(relay.getConnectString())
					.namespace(this.zookeeper.options().namespace())
					.sessionTimeoutMs(Faults.SESSION_TIMEOUT_MS)
					.connectionTimeoutMs(2_000)
					.retryPolicy(new RetryNTimes(0, 0))
					.build());
			client.start();
			victim.set(client);
			CuratorLocks locks = this.zookeeper.nodes().register(this.zookeeper.options().createLocks(client));
			try (LockHandle lease = locks.semaphore("quota", 1).acquire(Duration.ofSeconds(30))) {
				assertThat(cut).isTrue();
				long session = client.getZookeeperClient().getZooKeeper().getSessionId();
				Stat stat = observer.checkExists().forPath(leasePath(observer));
				assertThat(stat.getEphemeralOwner()).isEqualTo(session);
				// One guard in the session that ended, one in the session that holds the
				// lease (the observer is told of each a moment later).
				await().atMost(Duration.ofSeconds(10)).until(() -> guards.get() == 2);
				// The lease held is the only one made: the lost create was not sent again
				// in the new session before its guard was taken there (the observer is
				// told of creations in their order).
				String held = ZKPaths.getNodeFromPath(leasePath(observer));
				await().atMost(Duration.ofSeconds(10)).until(() -> leasesMade.contains(held));
				assertThat(leasesMade).containsExactly(held);
			}
		}
	}

	private static String leasePath(CuratorFramework observer) throws Exception {
		List<String> leases = Faults.children(observer, "/semaphore/quota/leases");
		assertThat(leases).hasSize(1);
		return "/semaphore/quota/leases/" + leases.get(0);
	}

}
