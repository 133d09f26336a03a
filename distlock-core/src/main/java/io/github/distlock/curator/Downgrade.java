package io.github.distlock.curator;

import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockState;

/**
 * A reader's entry into the write lock its holder holds (a downgrade): its
 * {@link QueuePosition} takes the write node's place in the queue, as Curator's read lock
 * does, and holds at once, if the write lock is still held.
 *
 * @param write the write lock's hold
 */
record Downgrade(Hold write) {

	/** The sequence our node takes: the write node's. */
	String sequence() {
		return this.write.node().sequence();
	}

	/**
	 * The name of the reader's node, not sequential: it takes the write node's place in
	 * the queue, as Curator's read lock does, so a writer queued behind that write lock
	 * waits for it too.
	 */
	String nodeName(String lockName) {
		return lockName + sequence();
	}

	/**
	 * Why the reader's node cannot be made, or {@code null}. At the ceiling of sequence
	 * numbers it would keep its write lock's number but not its place: there the place is
	 * the creation zxid, and a writer queued behind the write lock would come first once
	 * it is released.
	 */
	@Nullable LockAcquisitionException refusal() {
		String writeNode = ZKPaths.getNodeFromPath(this.write.node().path());
		if (!QueueDriver.isAtCeiling(QueueDriver.sequence(writeNode, QueueDriver.WRITE_NAME))) {
			return null;
		}
		return new LockAcquisitionException("The read lock of '" + this.write.path()
				+ "' cannot be taken inside its write lock (a downgrade): the queue's sequence numbers "
				+ "reached their ceiling (2147483647 child changes of its parent), where a downgraded "
				+ "read node cannot keep the write node's place; release the write lock and take the "
				+ "read lock anew, or let the parent empty so that ZooKeeper reaps it", null);
	}

	/**
	 * Why the reader's node, of the given session, may not hold, or {@code null}: it
	 * holds only if it belongs to the write lock's session and the write lock is still
	 * held.
	 */
	@Nullable LockLostException lostAtGrant(long session) {
		if (session == this.write.node().session() && this.write.state() == LockState.HELD) {
			return null;
		}
		return new LockLostException("The write lock '" + this.write.path() + "' was lost or released before its "
				+ "read lock could be taken (a downgrade): the read lock is not held");
	}

	/** The reader's node vanished: the write lock was lost with its session. */
	LockLostException lostWithSession() {
		return new LockLostException("The write lock '" + this.write.path()
				+ "' was lost with its session before its read lock could be taken (a downgrade): "
				+ "the read lock is not held");
	}

}
