package io.github.distlock.curator;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.curator.utils.ZKPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells, once per queue, that a lock queue holds a child that is not one of its
 * protocol's nodes: most often the parent node of another lock whose path lies inside
 * this one ({@code orders} and {@code orders/42} locked as two mutexes), or a node some
 * other program made. distlock's {@link QueueDriver}s leave such a child out, but Apache
 * Curator's recipes sort it among the lock nodes: a Curator client on the same path may
 * wait on it for as long as it exists, and a Curator semaphore counts it as a lease. The
 * lock annotations refuse templates that nest at startup; this catches paths built in
 * code and nodes made elsewhere.
 */
final class ForeignNodes {

	private static final Logger logger = LoggerFactory.getLogger(ForeignNodes.class);

	// Queues already reported, across the process: a bounded set, so that paths built
	// from unbounded keys cannot grow it without end (later queues go unreported).
	private static final int REMEMBERED = 1024;

	private static final Set<String> reported = ConcurrentHashMap.newKeySet();

	private ForeignNodes() {
	}

	/**
	 * Look at the children of a queue as read for a waiter, and log a warning the first
	 * time the queue holds one that is not a lock node.
	 * @param namespace the client's namespace ({@code ""} for none)
	 * @param queuePath the queue's node, relative to the namespace
	 * @param children its children
	 * @param driver the protocol of the queue
	 */
	static void check(String namespace, String queuePath, List<String> children, QueueDriver driver) {
		for (String child : children) {
			if (!driver.isQueueNode(child)) {
				String queue = ZKPaths.makePath(namespace, queuePath);
				if (reported.size() < REMEMBERED && reported.add(queue)) {
					logger.warn("Lock queue {} holds '{}', which is not a lock node: it is the parent of another "
							+ "lock whose path lies inside this one, or a node made by another program. distlock "
							+ "leaves it out, but Apache Curator's recipes on the same path take it for a lock node "
							+ "(a Curator client may wait on it, a Curator semaphore counts it as a lease): keep "
							+ "lock paths of one kind from nesting (see docs/paths.md)", queue, child);
				}
				return;
			}
		}
	}

}
