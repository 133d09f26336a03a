package io.github.distlock.core;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * Leader election among the instances of an application, one election per group: the
 * protocol of Curator's {@code LeaderLatch}, node for node, so raw {@code LeaderLatch}
 * clients on the same ZooKeeper path take part in the same election. Each member keeps
 * one protected ephemeral-sequential {@code latch-} node under
 * {@code /<namespace>/leader/<group>}; the lowest leads, each other member watches its
 * predecessor. Waiting for leadership costs no thread.
 * <p>
 * A tenure lasts while the latch node's session lives and the connection is up (a
 * suspended connection puts it in doubt or ends it, as the lock
 * {@link ConnectionLossPolicy} says). Its {@linkplain #epoch(String) epoch}, the creating
 * zxid of the leader's latch node, grows from one leader to the next: pass it to what the
 * leader writes, as a fencing token.
 * <p>
 * Group names are literal lock paths ({@link LockPath#parse(String)}).
 * <p>
 * Every member has a {@linkplain #memberId() member id}, written as the data of its latch
 * nodes: the id a raw {@code LeaderLatch} reads as the participant's id.
 */
public interface Leadership {

	/**
	 * This instance's id in every group it joins: the data of its latch nodes, shown by
	 * {@link #inspect(String)} and carried by the events.
	 * @return the member id, {@code application@host:pid} unless configured
	 */
	String memberId();

	/**
	 * Take part in the group's election, if this instance does not already. Returns at
	 * once; the latch node is made in the background (and again after a session loss).
	 * @param group the group
	 */
	void join(String group);

	/**
	 * Stop taking part in the group's election: a tenure ends (told to the listeners),
	 * and the latch node is deleted so that another member leads at once.
	 * @param group the group
	 * @return completes once ZooKeeper confirmed the delete (or there was no node)
	 */
	CompletableFuture<Void> leave(String group);

	/**
	 * Give up the tenure, if this instance leads: leave the group and join it again, at
	 * the end of its queue. Does nothing if this instance does not lead.
	 * @param group the group
	 */
	void relinquish(String group);

	/**
	 * Hand this instance's tenure to another member of the group, with nobody leading in
	 * between: the distlock members queued between this leader and the target queue again
	 * behind the target, then this leader's calls under the tenure drain (as when it
	 * leaves), its tenure ends and its latch node is deleted, so that the target's node
	 * is first. This instance queues again at the end. The target's epoch is larger than
	 * this tenure's. A member between that does not queue again within 10 s (a raw
	 * {@code LeaderLatch}, which keeps its place) fails the transfer, and this instance
	 * keeps leading.
	 * @param group the group, which this instance leads
	 * @param memberId the {@linkplain #memberId() member id} of a live member of the
	 * group; this instance's own gives its epoch at once
	 * @return completes with the target's epoch once ZooKeeper has it first; fails with
	 * an {@link IllegalStateException} naming the group and the member when the target
	 * leaves, this instance stops leading, a member between does not move, or the target
	 * does not lead within 40 s
	 * @throws IllegalStateException if this instance does not lead the group, or a
	 * transfer of it is under way
	 * @throws IllegalArgumentException if no live member of the group has that id, or
	 * several have
	 */
	CompletableFuture<Long> transferTo(String group, String memberId);

	/**
	 * Follow who leads a group, without taking part in its election: from now on, every
	 * change of its leader is published to the listeners as a {@link LeaderChangedEvent},
	 * driven by a watch on the group's node (no polling), raw {@code LeaderLatch} leaders
	 * included, until this instance closes; the first event tells the leader when the
	 * observation began.
	 * @param group the group
	 * @return its leader now (a blocking read; for a group already observed, as last
	 * seen), or empty if it has none
	 */
	Optional<ObservedLeader> observe(String group);

	/** The groups this instance observes. */
	Set<String> observedGroups();

	/**
	 * The leader of an observed group as last seen (no read).
	 * @param group the group
	 * @return its leader, or empty if it has none or the group is not observed
	 */
	Optional<ObservedLeader> observed(String group);

	/** The groups this instance takes part in. */
	Set<String> groups();

	/**
	 * Whether this instance leads the group now: its latch node is first, of the session
	 * in use, and the connection is up.
	 * @param group the group
	 * @return whether it leads
	 */
	boolean isLeader(String group);

	/**
	 * The epoch of this instance's tenure.
	 * @param group the group
	 * @return the creating zxid of this instance's latch node while it leads, else empty
	 */
	OptionalLong epoch(String group);

	/**
	 * The current tenure as a handle, for code that must know whether it still leads
	 * while it works: its state stays {@link LockState#HELD} while this tenure lasts, and
	 * becomes {@link LockState#LOST} when it ends (also if the same instance leads again
	 * later, with another node). Closing it changes nothing.
	 * @param group the group
	 * @return the tenure, or empty if this instance does not lead
	 */
	Optional<LockHandle> tenure(String group);

	/**
	 * Who leads the group, as ZooKeeper has it now (a blocking read): the member id of
	 * the first latch node ({@link LockParticipant#memberId()}; a raw {@code LeaderLatch}
	 * writes its participant id).
	 * @param group the group
	 * @return the leader's member id, or empty if the group has no member
	 */
	Optional<String> leader(String group);

	/**
	 * The group's participants as ZooKeeper has them now (a blocking read).
	 * @param group the group
	 * @return the group, this instance's part in it and its participants
	 */
	LeadershipGroup inspect(String group);

	/**
	 * Wait for this instance to lead the group, joining it if needed. The future
	 * completes with the epoch, not on a ZooKeeper thread; it fails if this instance
	 * leaves the group first. Cancelling it stops nothing but the wait.
	 * @param group the group
	 * @return the future epoch
	 */
	CompletableFuture<Long> awaitLeadership(String group);

	/**
	 * Join a partitioned group, if this instance is not a member already: {@code count}
	 * partitions, each owned by one live member ({@link Partitions}). Returns at once;
	 * the member node is made in the background (and again after a session loss).
	 * @param group the group, a literal lock path ({@link LockPath#parse(String)})
	 * @param count the number of partitions, at least 1, the same in every member
	 * @return this instance's membership of the group; the same object for the same group
	 * until it leaves
	 * @throws LockConfigurationException if the count is below 1, or this instance is a
	 * member of the group with another count
	 */
	default Partitions partitions(String group, int count) {
		throw new UnsupportedOperationException(
				getClass().getSimpleName() + " does not support partitioned groups ('" + group + "')");
	}

	/**
	 * Why this instance cannot take part in the group's election now, if ZooKeeper
	 * refused its latch node (an ACL's {@code NoAuth}, a bad ACL): the last refusal,
	 * until it queues again. It tries again every second meanwhile; each new cause is
	 * logged and told to the client's {@code UnhandledErrorListener}s once.
	 * @param group the group
	 * @return the last refusal, or empty while it takes part (or is no member)
	 */
	default Optional<Exception> lastError(String group) {
		return Optional.empty();
	}

	/**
	 * Add a listener told of every tenure's start and end.
	 * @param listener the listener
	 */
	void addListener(LeadershipListener listener);

}
