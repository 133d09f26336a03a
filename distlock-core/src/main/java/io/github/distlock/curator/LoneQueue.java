package io.github.distlock.curator;

import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;

/**
 * One mutex queue's state in {@link LoneQueues}: the watch on its parent, our node last
 * known its only child, and when it was acquired. Guarded by the {@code LoneQueues}'
 * monitor.
 */
final class LoneQueue {

	final String path;

	// The watch set (or being set) on the parent, and the handle it was set with.
	@Nullable Watcher watch;

	long instance;

	// Whether the watch's exists was answered with the parent there.
	boolean armed;

	// Our node last known the only child while the watch was set, whether its
	// delete was answered, and a count of the changes of both.
	@Nullable String alone;

	// When it was acquired last, and the time before (nanoTime).
	long lastUse;

	long previousUse;

	boolean aloneDeleted;

	long epoch;

	LoneQueue(String path) {
		this.path = path;
	}

	boolean isArmed(long instance) {
		return this.armed && this.watch != null && this.instance == instance;
	}

	void alone(String nodeName) {
		this.alone = nodeName;
		this.aloneDeleted = false;
		this.epoch++;
	}

	void forget() {
		this.alone = null;
		this.aloneDeleted = false;
		this.epoch++;
	}

	/**
	 * What the answer of one create may prove: the queue's state it was sent with, and
	 * the number the node must have.
	 */
	record Proof(LoneQueue queue, long epoch, int sequence) {

	}

}
