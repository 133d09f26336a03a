package io.github.distlock.shedlock;

import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

import io.github.distlock.core.LockKind;

/**
 * The lock nodes ZooKeeper has for a ShedLock lock name, read with a client of the
 * application's namespace: what the provider's tests call locked and unlocked.
 */
final class LockNodes {

	private LockNodes() {
	}

	/** The queue node of the name's mutex, relative to the namespace. */
	static String queueOf(String name) {
		return "/" + LockKind.MUTEX.subtree() + "/" + DistlockLockProvider.pathOf(name).value();
	}

	/** The lock nodes of the name's mutex: one while it is held, none when it is free. */
	static List<String> of(CuratorFramework client, String name) {
		try {
			return client.getChildren().forPath(queueOf(name));
		}
		catch (KeeperException.NoNodeException ex) {
			// The queue node is a container: ZooKeeper reaps it once it is empty.
			return List.of();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not read " + queueOf(name), ex);
		}
	}

}
