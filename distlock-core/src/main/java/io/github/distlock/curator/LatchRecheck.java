package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;

import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a group's queue again with the latch node that led, after the connection came
 * back within the session, as {@code LeaderLatch} does, and tells whether that node is
 * still first. A read that fails for want of a connection is made again at the next
 * reconnection, or after 50 ms when the connection came back before its answer did.
 * <p>
 * Runs under the monitor of the participant it reads for, which guards whether the
 * participant still follows the node.
 */
final class LatchRecheck {

	private static final Logger logger = LoggerFactory.getLogger(LatchRecheck.class);

	/** Pause before a stalled read tries again on a connection that is back. */
	private static final Duration STALL_RETRY = Duration.ofMillis(50);

	private final Object monitor;

	private final Engine engine;

	private final String group;

	private final String queuePath;

	private final Outcome outcome;

	LatchRecheck(Object monitor, Engine engine, String group, String queuePath, Outcome outcome) {
		this.monitor = monitor;
		this.engine = engine;
		this.group = group;
		this.queuePath = queuePath;
		this.outcome = outcome;
	}

	/**
	 * Read the queue again with the node we had: still first, it leads again.
	 */
	void recheck(LockNode node) {
		try {
			this.engine.requests().children(this.queuePath, null, (event) -> {
				synchronized (this.monitor) {
					if (!this.outcome.follows(node)) {
						return;
					}
					KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
					if (Requests.isConnectionProblem(code)) {
						recheckLater(node);
						return;
					}
					List<String> children = (code == KeeperException.Code.OK) ? event.getChildren() : List.of();
					CreationOrder order = new CreationOrder();
					order.know(nodeName(node), node.czxid());
					order.complete(this.engine.requests(), this.queuePath, children, QueueDriver.LATCH.orderedNames(),
							(orderCode, present) -> rechecked(node, order, orderCode, present));
				}
			});
		}
		catch (Exception ex) {
			logger.debug("Could not read the queue of group '{}': {}", this.group, ex.toString());
		}
	}

	/**
	 * A read of the recheck failed for want of a connection: the next reconnection reads
	 * again, unless the connection came back before this answer did (its event may have
	 * been seen already).
	 */
	private void recheckLater(LockNode node) {
		if (!this.engine.session().isConnected()) {
			return;
		}
		this.engine.threads().requestAfter(STALL_RETRY, () -> {
			synchronized (this.monitor) {
				if (this.outcome.follows(node) && this.engine.session().isConnected()) {
					recheck(node);
				}
			}
		});
	}

	/** The queue was read again, and the creation order of its nodes is known. */
	private void rechecked(LockNode node, CreationOrder order, KeeperException.Code code, List<String> children) {
		synchronized (this.monitor) {
			if (!this.outcome.follows(node)) {
				return;
			}
			if (Requests.isConnectionProblem(code)) {
				recheckLater(node);
				return;
			}
			QueueDriver.Verdict verdict = (code == KeeperException.Code.OK)
					? QueueDriver.LATCH.decide(children, order.known(), nodeName(node), false) : null;
			if (verdict != null && verdict.holds()) {
				if (!this.engine.session().isConnected()) {
					return;
				}
				this.outcome.first(node);
				return;
			}
			// Gone, or (deleted and made again by another) not first.
			this.outcome.notFirst(node);
		}
	}

	private static String nodeName(LockNode node) {
		String path = node.path();
		return path.substring(path.lastIndexOf('/') + 1);
	}

	/** What the participant makes of a recheck; called under its monitor. */
	interface Outcome {

		/** Whether the participant still follows the node (joined, the node its own). */
		boolean follows(LockNode node);

		/** The node is still first, and the client connected. */
		void first(LockNode node);

		/** The node is gone, or not first any more. */
		void notFirst(LockNode node);

	}

}
