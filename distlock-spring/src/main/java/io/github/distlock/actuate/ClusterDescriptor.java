package io.github.distlock.actuate;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.Election;
import io.github.distlock.core.LockAdmin;
import io.github.distlock.core.LockInUse;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.WaitForGraph;

/**
 * The cluster's locks as ZooKeeper has them now ({@link LockAdmin}): every lock in use
 * with its holders and its waiters in queue order, the deadlocks among them, every leader
 * election, and whether this instance is draining.
 *
 * @param readAt when this instance read them, by its clock (a holder's age is the time
 * from its node's creation to this)
 * @param draining whether this instance is draining
 * @param locks every lock in use, by protocol and then by path
 * @param deadlocks the cycles of the wait-for graph, each as its edges in order
 * @param elections every leader election with members, by group
 * @param error why ZooKeeper could not be read (the lists are then empty), or
 * {@code null}
 */
public record ClusterDescriptor(Instant readAt, boolean draining, List<LockInUseDescriptor> locks,
		List<List<WaitDescriptor>> deadlocks, List<ElectionDescriptor> elections, @Nullable String error) {

	/**
	 * Read the cluster's locks.
	 * @param admin the cluster-wide view of the locks
	 * @return what it shows now, or the error that kept it from being read
	 */
	public static ClusterDescriptor of(LockAdmin admin) {
		boolean draining = admin.isDraining();
		try {
			List<LockInUse> locks = admin.locks();
			WaitForGraph graph = WaitForGraph.of(locks);
			return new ClusterDescriptor(Instant.now(), draining, locks.stream().map(LockInUseDescriptor::of).toList(),
					graph.cycles().stream().map((cycle) -> cycle.stream().map(WaitDescriptor::of).toList()).toList(),
					admin.leaders().stream().map(ElectionDescriptor::of).toList(), null);
		}
		catch (RuntimeException ex) {
			return new ClusterDescriptor(Instant.now(), draining, List.of(), List.of(), List.of(), ex.getMessage());
		}
	}

	/**
	 * One lock in use.
	 *
	 * @param path the lock path
	 * @param protocol its protocol ({@code mutex}, {@code read_write}, {@code semaphore})
	 * @param node the lock's ZooKeeper node, relative to the namespace
	 * @param holders who holds it, in queue order
	 * @param waiters who waits for it, in queue order: the first is next
	 */
	public record LockInUseDescriptor(String path, String protocol, String node, List<ParticipantDescriptor> holders,
			List<ParticipantDescriptor> waiters) {

		static LockInUseDescriptor of(LockInUse lock) {
			return new LockInUseDescriptor(lock.path().value(), lock.protocol().value(), lock.queue().node(),
					lock.holders().stream().map(ParticipantDescriptor::of).toList(),
					lock.waiters().stream().map(ParticipantDescriptor::of).toList());
		}

	}

	/**
	 * One holder or waiter of a lock, or member of an election.
	 *
	 * @param name its node's name
	 * @param fencingToken the fencing token of its holder (the zxid that created the
	 * node)
	 * @param createdAt when ZooKeeper created the node
	 * @param side {@code read} or {@code write}, {@code lease} or {@code waiting}, or
	 * {@code null} for a mutex
	 * @param session the ZooKeeper session that owns it
	 * @param description who it is, in one line ({@link LockParticipant#describe()})
	 * @param identity who created it, from a distlock node's data, or {@code null}
	 */
	public record ParticipantDescriptor(String name, long fencingToken, Instant createdAt, @Nullable String side,
			String session, String description, @Nullable NodeIdentity identity) {

		static ParticipantDescriptor of(LockParticipant participant) {
			return new ParticipantDescriptor(participant.name(), participant.fencingToken(), participant.createdAt(),
					participant.side(), "0x" + Long.toHexString(participant.session()), participant.describe(),
					NodeIdentity.parse(participant.data()));
		}

	}

	/**
	 * One waiter waiting for one holder.
	 *
	 * @param path the lock
	 * @param protocol the lock's protocol
	 * @param waiter who waits
	 * @param holder who holds
	 */
	public record WaitDescriptor(String path, String protocol, String waiter, String holder) {

		static WaitDescriptor of(WaitForGraph.Edge edge) {
			return new WaitDescriptor(edge.path().value(), edge.protocol().value(), edge.waiter().description(),
					edge.holder().description());
		}

	}

	/**
	 * One leader election.
	 *
	 * @param group the group
	 * @param node the group's ZooKeeper node, relative to the namespace
	 * @param leader who leads, or {@code null} if no member
	 * @param epoch the leader's epoch (the fencing token its calls carry), {@code 0}
	 * without a leader
	 * @param members every member in queue order, the leader first
	 */
	public record ElectionDescriptor(String group, String node, @Nullable String leader, long epoch,
			List<ParticipantDescriptor> members) {

		static ElectionDescriptor of(Election election) {
			return new ElectionDescriptor(election.group(), election.node(),
					election.leader().map(LockParticipant::describe).orElse(null), election.epoch(),
					election.members().stream().map(ParticipantDescriptor::of).toList());
		}

	}

}
