package io.github.distlock.curator;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.LeadershipGroup;
import io.github.distlock.core.LeadershipHandOffEvent;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.core.LockAcquisitionException;

/**
 * The hand-offs of one {@link CuratorLeadership} as a leader, at most one per group
 * ({@link CuratorLeadership#transferTo}): checks what can be known first, then runs a
 * {@link HandOff}, and completes the caller's future off ZooKeeper's thread. Each
 * hand-off that ran is told to the listeners as a {@link LeadershipHandOffEvent}, with
 * how long it took.
 */
final class Transfers {

	private static final Logger logger = LoggerFactory.getLogger(Transfers.class);

	private final Engine engine;

	private final String memberId;

	private final List<LeadershipListener> listeners;

	// The transfers under way, by group.
	private final ConcurrentMap<String, CompletableFuture<Long>> running = new ConcurrentHashMap<>();

	Transfers(Engine engine, String memberId, List<LeadershipListener> listeners) {
		this.engine = engine;
		this.memberId = memberId;
		this.listeners = listeners;
	}

	/**
	 * Hand the group's tenure to the member.
	 * @param group the group's name
	 * @param participant this instance's participant in it, if any
	 * @param ownId this instance's member id
	 * @param memberId the target's member id
	 * @param inspect reads a group as ZooKeeper has it now
	 * @return completes with the target's epoch once it leads
	 */
	CompletableFuture<Long> transfer(String group, @Nullable Participant participant, String ownId, String memberId,
			Function<String, LeadershipGroup> inspect) {
		String refused = "Cannot transfer group '" + group + "' to member '" + memberId + "': ";
		String ours = (participant != null && participant.isLeader()) ? participant.leadingNode() : null;
		if (participant == null || ours == null) {
			throw new IllegalStateException(refused + "this instance ('" + ownId + "') does not lead it");
		}
		if (memberId.equals(ownId)) {
			return CompletableFuture.completedFuture(participant.epoch());
		}
		LeadershipGroup members;
		try {
			members = inspect.apply(group);
		}
		catch (LockAcquisitionException ex) {
			// The group could not be read: a failure of the transfer, not of the request.
			return CompletableFuture.failedFuture(ex);
		}
		HandOff handOff = HandOff.plan(this.engine, new HandOff.Leader() {

			@Override
			public boolean leads() {
				return participant.isLeader() && ours.equals(participant.leadingNode());
			}

			@Override
			public CompletableFuture<Void> handOver() {
				return participant.handOver();
			}

		}, members, ours, memberId, refused);
		CompletableFuture<Long> done = new CompletableFuture<>();
		if (this.running.putIfAbsent(group, done) != null) {
			throw new IllegalStateException(refused + "a transfer of the group is under way");
		}
		long start = System.nanoTime();
		handOff.start(HandOff.MOVE_WAIT).whenComplete((epoch, ex) -> {
			this.running.remove(group, done);
			tell(new LeadershipHandOffEvent(group, this.memberId, memberId, (ex != null) ? 0 : epoch,
					Duration.ofNanos(System.nanoTime() - start)));
			this.engine.threads().complete(() -> {
				if (ex != null) {
					done.completeExceptionally(ex);
				}
				else {
					done.complete(epoch);
				}
			});
		});
		return done;
	}

	private void tell(LeadershipHandOffEvent event) {
		this.engine.threads().reportLoss(() -> {
			for (LeadershipListener listener : this.listeners) {
				try {
					listener.handedOff(event);
				}
				catch (RuntimeException ex) {
					logger.warn("Leadership listener failed", ex);
				}
			}
		});
	}

}
