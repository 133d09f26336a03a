package io.github.distlock.curator;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * An attempt on a mutex or one side of a read/write lock: one node in one queue, held as
 * soon as its driver says so.
 */
final class QueueAttempt extends Attempt {

	private final QueuePosition position;

	/**
	 * Create an attempt.
	 * @param locks the engine
	 * @param kind the kind of lock
	 * @param path the lock path
	 * @param queuePath the queue's node
	 * @param driver the protocol
	 * @param holder who asks, for the node data
	 * @param waitTime how long to wait
	 * @param exclusive whether this client's attempts queue locally first
	 * @param downgrade the node sequence of the write lock the holder holds, for a
	 * downgrading reader, or {@code null}
	 */
	QueueAttempt(CuratorLocks locks, LockKind kind, LockPath path, String queuePath, QueueDriver driver, String holder,
			Duration waitTime, boolean exclusive, @Nullable String downgrade) {
		super(locks, kind, path, holder, waitTime, exclusive ? queuePath : null);
		this.position = new QueuePosition(this, queuePath, driver, locks.identity().nodeData(holder), downgrade);
	}

	@Override
	void begin() {
		this.position.start();
	}

	@Override
	void resumeInZooKeeper() {
		this.position.resume();
	}

	@Override
	void abandonInZooKeeper() {
		this.position.abandon();
	}

	@Override
	void granted(QueuePosition position, LockNode node) {
		grant(node);
	}

}
