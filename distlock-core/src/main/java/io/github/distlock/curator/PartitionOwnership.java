package io.github.distlock.curator;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.OwnedPartition;
import io.github.distlock.core.PartitionGuard;
import io.github.distlock.core.PartitionRevokedEvent;

/**
 * One owner node of ours in a partitioned group, from its claim until it is given up: the
 * work entered under it ({@link PartitionGuard}s), and once it is being given up, the
 * wait for that work to end. Guarded by its own monitor, taken inside its group's.
 */
final class PartitionOwnership {

	private static final Logger logger = LoggerFactory.getLogger(PartitionOwnership.class);

	private final String group;

	private final int index;

	private final LockNode node;

	private final Instant since;

	// Completes when the last guard closes once the ownership is being given up, or when
	// the wait for the guards gives up.
	private final CompletableFuture<Void> drained = new CompletableFuture<>();

	// Completes when the group forgot the ownership (its node deleted, or known gone).
	private final CompletableFuture<Void> ended = new CompletableFuture<>();

	// Guarded by this.
	private int guards;

	private PartitionRevokedEvent.@Nullable Reason revoking;

	PartitionOwnership(String group, int index, LockNode node) {
		this.group = group;
		this.index = index;
		this.node = node;
		this.since = Instant.now();
	}

	int index() {
		return this.index;
	}

	long epoch() {
		return this.node.czxid();
	}

	LockNode node() {
		return this.node;
	}

	OwnedPartition snapshot() {
		return new OwnedPartition(this.index, this.node.czxid(), this.since);
	}

	synchronized boolean isRevoking() {
		return this.revoking != null;
	}

	/** Enter work under the ownership, unless it is being given up. */
	synchronized PartitionGuard enter(String memberId) {
		if (this.revoking != null) {
			throw new IllegalStateException(
					"Partitions.enter(" + this.index + "): partition " + this.index + " of group '" + this.group
							+ "' is being given up by this instance ('" + memberId + "'): " + this.revoking);
		}
		this.guards++;
		return new Guard();
	}

	/** Refuse new work from now on. */
	void revoking(PartitionRevokedEvent.Reason reason) {
		boolean idle;
		synchronized (this) {
			this.revoking = reason;
			idle = this.guards == 0;
		}
		if (idle) {
			this.drained.complete(null);
		}
	}

	/**
	 * Wait for the guards to close, at most the given time.
	 * @return completes when they are closed, or the time is over
	 */
	CompletableFuture<Void> drained(Threads threads, Duration bound) {
		if (!this.drained.isDone()) {
			threads.requestAfter(bound, () -> {
				if (this.drained.complete(null)) {
					logger.warn("Partition {} of group '{}' is given up with work still entered under it after {}",
							this.index, this.group, bound);
				}
			});
		}
		return this.drained;
	}

	CompletableFuture<Void> ended() {
		return this.ended;
	}

	private void exit() {
		boolean idle;
		synchronized (this) {
			this.guards--;
			idle = this.revoking != null && this.guards == 0;
		}
		if (idle) {
			this.drained.complete(null);
		}
	}

	private final class Guard implements PartitionGuard {

		private final AtomicBoolean closed = new AtomicBoolean();

		@Override
		public int index() {
			return PartitionOwnership.this.index;
		}

		@Override
		public long epoch() {
			return PartitionOwnership.this.node.czxid();
		}

		@Override
		public void close() {
			if (this.closed.compareAndSet(false, true)) {
				exit();
			}
		}

	}

}
