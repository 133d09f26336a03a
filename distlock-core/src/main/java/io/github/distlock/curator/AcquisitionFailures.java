package io.github.distlock.curator;

import java.time.Duration;

import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockTimeoutException;

/**
 * What the caller of one acquisition is told when it ends without the lock: a timeout
 * (not connected, held by another holder, or no answer in time), or a failure, with the
 * advice for one that ZooKeeper's access control refused.
 */
final class AcquisitionFailures {

	private final Engine engine;

	private final LockPath path;

	private final Duration waitTime;

	AcquisitionFailures(Engine engine, LockPath path, Duration waitTime) {
		this.engine = engine;
		this.path = path;
		this.waitTime = waitTime;
	}

	/**
	 * The exception a caller gets when the acquisition timed out now.
	 * @param answered whether ZooKeeper answered the acquisition at least once
	 * @param startNanos when the acquisition started, as {@link System#nanoTime()}
	 * @param cause what made it time out, if anything
	 */
	LockTimeoutException timeout(boolean answered, long startNanos, @Nullable Throwable cause) {
		String reason;
		if (!this.engine.session().isConnected()) {
			reason = "ZooKeeper (" + this.engine.session().connectString() + ") is not connected";
		}
		else if (answered) {
			reason = "it is held by another holder";
		}
		else {
			reason = "ZooKeeper (" + this.engine.session().connectString() + ") did not answer in time";
		}
		return new LockTimeoutException(
				"Lock '" + this.path + "' was not acquired within " + format(this.waitTime) + ": " + reason, this.path,
				this.waitTime, Duration.ofNanos(System.nanoTime() - startNanos), cause);
	}

	/** The exception a caller gets when the acquisition failed with the given problem. */
	DistributedLockException failure(Throwable ex) {
		if (ex instanceof DistributedLockException distlock) {
			return distlock;
		}
		if (ex instanceof KeeperException.AuthFailedException keeper) {
			return new LockAcquisitionException("Cannot acquire lock '" + this.path
					+ "': ZooKeeper refused this client's credentials (authentication failed). "
					+ this.engine.accessDeniedAdvice().advice(keeper.code()), ex);
		}
		if (ex instanceof KeeperException.NoAuthException || ex instanceof KeeperException.InvalidACLException) {
			// The exception names the full path of the node ZooKeeper refused.
			KeeperException keeper = (KeeperException) ex;
			String node = (keeper.getPath() != null) ? keeper.getPath()
					: this.engine.session().namespaced(this.path.value());
			String reason = (ex instanceof KeeperException.InvalidACLException)
					? "it refused the ACL for a new node (creator-only ACLs need an authenticated session)"
					: "the node's ACL does not grant this client's identity access";
			return new LockAcquisitionException("Cannot acquire lock '" + this.path + "': ZooKeeper refused access to "
					+ node + ", " + reason + ". " + this.engine.accessDeniedAdvice().advice(keeper.code()), ex);
		}
		return new LockAcquisitionException(
				"Acquiring lock '" + this.path + "' failed: " + ex.getClass().getSimpleName() + ": " + ex.getMessage(),
				ex);
	}

	static String format(Duration waitTime) {
		if (waitTime.isZero()) {
			return "a single try";
		}
		return (waitTime.toMillis() < 10_000) ? waitTime.toMillis() + "ms" : waitTime.toSeconds() + "s";
	}

}
