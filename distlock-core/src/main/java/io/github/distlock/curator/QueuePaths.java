package io.github.distlock.curator;

import org.apache.curator.utils.ZKPaths;

import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/** Where the queues of a lock path live, one subtree per lock kind. */
final class QueuePaths {

	private QueuePaths() {
	}

	/**
	 * The node of a lock's queue (or, for a semaphore, of its guard and leases).
	 * @param kind the lock's kind
	 * @param path the lock's path
	 * @return the queue node's path, below the namespace
	 */
	static String of(LockKind kind, LockPath path) {
		return ZKPaths.makePath(kind.subtree(), path.value());
	}

}
