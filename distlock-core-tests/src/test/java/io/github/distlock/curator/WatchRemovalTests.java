package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.testsupport.ServerWatches;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An acquisition that ends without the lock (its deadline, a try-once, a cancellation,
 * closed locks) removes the watchers it registered, as Curator's recipes do, while the
 * holder it waited for still holds: otherwise they pile up in the client behind a long
 * holder, one per acquisition, and are set again on the server on every reconnection.
 * ZooKeeper itself keeps a watch until its node changes; what shows a watcher left in the
 * client is the watch it sets again when it reconnects.
 */
class WatchRemovalTests {

	static {
		ServerWatches.enable();
	}

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void attemptsThatEndWithoutTheLockLeaveNoWatcherBehindALongHolder() throws Exception {
		CuratorLocks holder = this.zookeeper.newNode();
		CuratorLocks waiter = this.zookeeper.newNode();
		List<LockHandle> held = List.of(holder.mutex("long").acquire(Duration.ofSeconds(5)),
				holder.readWrite("long").writeLock().acquire(Duration.ofSeconds(5)),
				holder.semaphore("long", 1).acquire(Duration.ofSeconds(5)));
		try {
			for (ClusterLock lock : List.of(waiter.mutex("long"), waiter.readWrite("long").readLock(),
					waiter.readWrite("long").writeLock(), waiter.semaphore("long", 1))) {
				assertThatExceptionOfType(LockTimeoutException.class)
					.isThrownBy(() -> lock.acquire(Duration.ofMillis(300)));
				// A try-once on the semaphore watches the leases while it waits for
				// the guard.
				assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> lock.acquire(Duration.ZERO));
				CompletableFuture<LockHandle> cancelled = lock.acquireAsync(Duration.ofSeconds(30));
				await().atMost(Duration.ofSeconds(5)).until(() -> !watches().isEmpty());
				cancelled.cancel(false);
			}
			CompletableFuture<LockHandle> closing = waiter.mutex("long").acquireAsync(Duration.ofSeconds(30));
			await().atMost(Duration.ofSeconds(5)).until(() -> !watches().isEmpty());
			waiter.close();
			assertThat(closing).failsWithin(Duration.ofSeconds(5));
			await().atMost(Duration.ofSeconds(5)).until(() -> waiter.waitingCount() == 0);

			// Both clients reconnect in the same sessions: a watcher the waiter still had
			// would be set again now.
			long waiterSession = waiter.client().getZookeeperClient().getZooKeeper().getSessionId();
			this.zookeeper.server().restart();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> waiter.client().getZookeeperClient().isConnected()
						&& holder.client().getZookeeperClient().isConnected());
			assertThat(waiter.client().getZookeeperClient().getZooKeeper().getSessionId()).isEqualTo(waiterSession);
			assertThat(watches()).isEmpty();
		}
		finally {
			held.forEach(LockHandle::close);
		}
	}

	private List<String> watches() throws Exception {
		return ServerWatches.watchedPaths(this.zookeeper.server().getPort(), "distlock-test");
	}

}
