package io.github.distlock.curator;

import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockState;

/**
 * One tenure of a participant of a leader election, as a handle whose state follows it:
 * held while the tenure leads, in doubt while it is in doubt, lost once it ended (even if
 * the same node leads again: that is a new tenure). Its fencing token is the tenure's
 * epoch. While a handle is open, a leaving leader drains: it deletes its node only once
 * the handle is closed (or the drain time is over).
 * <p>
 * Its node path is the latch node that leads in the tenure: while that node exists it is
 * the first of the group, so no other member led since the tenure began (a member leads
 * only once the nodes before its own are gone). A write to ZooKeeper, or a Kafka
 * producer's initialization, that checks the node on the server therefore lands only if
 * no newer leader could have come first.
 */
final class TenureHandle implements LockHandle {

	private final Source participant;

	private final long tenure;

	private final long epoch;

	private final String node;

	private final Instant since;

	private final AtomicBoolean closed = new AtomicBoolean();

	TenureHandle(Source participant, long tenure, long epoch, String node, @Nullable Instant since) {
		this.participant = participant;
		this.tenure = tenure;
		this.epoch = epoch;
		this.node = node;
		this.since = (since != null) ? since : Instant.now();
	}

	@Override
	public LockPath path() {
		return this.participant.path();
	}

	@Override
	public LockKind kind() {
		return LockKind.LEADER;
	}

	@Override
	public long fencingToken() {
		return this.epoch;
	}

	@Override
	public Optional<String> nodePath() {
		return Optional.of(this.node);
	}

	@Override
	public Instant acquiredAt() {
		return this.since;
	}

	@Override
	public LockState state() {
		return this.participant.stateOf(this.tenure);
	}

	@Override
	public void close() {
		if (this.closed.compareAndSet(false, true)) {
			this.participant.closed(this.tenure);
		}
	}

	@Override
	public CompletableFuture<Void> closeAsync() {
		close();
		return CompletableFuture.completedFuture(null);
	}

	@Override
	public String toString() {
		return "leadership of '" + this.participant.group() + "' (epoch " + this.epoch + ")";
	}

	/** Where a handle's tenure is followed. */
	interface Source {

		/** The group's path. */
		LockPath path();

		/** The group's name. */
		String group();

		/** The state of the given tenure now. */
		LockState stateOf(long tenure);

		/** A handle of the given tenure was closed. */
		void closed(long tenure);

	}

}
