package io.github.distlock.curator;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * An acquisition on a mutex or one side of a read/write lock: one node in one queue, held
 * as soon as its driver says so.
 */
final class QueueAcquisition extends Acquisition {

	private final QueuePosition position;

	private final @Nullable Downgrade downgrade;

	/**
	 * Create an acquisition.
	 * @param engine the engine of the client
	 * @param kind the kind of lock
	 * @param path the lock path
	 * @param queuePath the queue's node
	 * @param driver the protocol
	 * @param holder who asks, for the node data
	 * @param waitTime how long to wait
	 * @param exclusive whether this client's acquisitions queue locally first
	 * @param downgrade the write lock the holder holds, for a downgrading reader, or
	 * {@code null}
	 */
	QueueAcquisition(Engine engine, LockKind kind, LockPath path, String queuePath, QueueDriver driver, String holder,
			Duration waitTime, boolean exclusive, @Nullable Downgrade downgrade) {
		super(engine, kind, path, holder, waitTime, exclusive ? queuePath : null);
		this.downgrade = downgrade;
		// Only an exclusive mutex's node may be proved alone by its number.
		LoneCheck lone = (exclusive && driver == QueueDriver.MUTEX && downgrade == null)
				? new LoneCheck(engine.loneQueues(), queuePath) : LoneCheck.OFF;
		this.position = new QueuePosition(engine, this, queuePath, driver, engine.identity().nodeData(holder),
				downgrade, lone);
	}

	/** The position in the queue (for tests). */
	QueuePosition position() {
		return this.position;
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
	public void granted(QueuePosition position, LockNode node) {
		// A downgrade enters the write lock's hold: it carries its token, which is older
		// than the nodes queued behind the write lock (its own node is younger).
		grant(node, (this.downgrade != null) ? this.downgrade.write().fencingToken() : node.czxid());
	}

}
