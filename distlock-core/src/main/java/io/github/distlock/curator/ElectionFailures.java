package io.github.distlock.curator;

import java.time.Duration;

import org.apache.curator.framework.api.UnhandledErrorListener;
import org.apache.curator.framework.listen.ListenerManager;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Why one {@link Participant} could not take part in its group's election (ZooKeeper
 * refused its node: an ACL's {@code NoAuth}, a bad ACL): the last failure, kept until it
 * queues again, for health; and each new cause told once, not once per retry, in the log
 * and to the client's {@code UnhandledErrorListener}s (as Curator's {@code LeaderLatch}
 * tells its background errors), on distlock's event thread. A cause is the exception's
 * class, with ZooKeeper's code and path for a {@code KeeperException} (a latch node's
 * directory for the node itself, whose name changes with each try).
 */
final class ElectionFailures {

	private static final Logger logger = LoggerFactory.getLogger(ElectionFailures.class);

	private final Engine engine;

	private final String group;

	// Guarded by this.
	private @Nullable Exception last;

	private @Nullable String toldCause;

	ElectionFailures(Engine engine, String group) {
		this.engine = engine;
		this.group = group;
	}

	/** The participant failed, and tries again after the pause. */
	void failed(Exception ex, Duration retry) {
		String cause = cause(ex);
		synchronized (this) {
			this.last = ex;
			if (cause.equals(this.toldCause)) {
				logger.debug("Still cannot take part in the election of group '{}': {}", this.group, ex.toString());
				return;
			}
			this.toldCause = cause;
		}
		logger.warn("Could not take part in the election of group '{}': {}; trying again every {}", this.group,
				ex.toString(), retry);
		String message = "distlock could not take part in the election of group '" + this.group + "'";
		this.engine.threads().reportLoss(() -> tell(message, ex));
	}

	@SuppressWarnings("unchecked")
	private void tell(String message, Exception ex) {
		// Curator's own listenable is a manager that can tell its listeners.
		if (this.engine.client().getUnhandledErrorListenable() instanceof ListenerManager<?, ?> listeners) {
			((ListenerManager<?, UnhandledErrorListener>) listeners).forEach((listener) -> {
				try {
					listener.unhandledError(message, ex);
				}
				catch (RuntimeException failure) {
					logger.warn("Unhandled-error listener failed", failure);
				}
			});
		}
	}

	/** The participant has its node (or left): the failure is over. */
	synchronized void cleared() {
		this.last = null;
		this.toldCause = null;
	}

	/** The last failure, while it lasts. */
	synchronized @Nullable Exception last() {
		return this.last;
	}

	private static String cause(Exception ex) {
		if (ex instanceof KeeperException keeper) {
			String path = keeper.getPath();
			// Each try names a latch node of its own: the cause is its directory.
			if (path != null && path.lastIndexOf('/') > 0
					&& path.substring(path.lastIndexOf('/')).contains(QueueDriver.LATCH_NAME)) {
				path = path.substring(0, path.lastIndexOf('/'));
			}
			return keeper.code() + " " + path;
		}
		return ex.getClass().getName() + " " + ex.getMessage();
	}

}
