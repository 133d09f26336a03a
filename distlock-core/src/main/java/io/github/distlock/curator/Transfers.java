package io.github.distlock.curator;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LeadershipGroup;
import io.github.distlock.core.LockAcquisitionException;

/**
 * The hand-offs of one {@link CuratorLeadership} as a leader, at most one per group
 * ({@link CuratorLeadership#transferTo}): checks what can be known first, then runs a
 * {@link HandOff}, and completes the caller's future off ZooKeeper's thread.
 */
final class Transfers {

	private final Engine engine;

	// The transfers under way, by group.
	private final ConcurrentMap<String, CompletableFuture<Long>> running = new ConcurrentHashMap<>();

	Transfers(Engine engine) {
		this.engine = engine;
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
		handOff.start(HandOff.MOVE_WAIT).whenComplete((epoch, ex) -> {
			this.running.remove(group, done);
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

}
