package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.LeadershipGroup;
import io.github.distlock.core.LockParticipant;

/**
 * One hand-off of a group's tenure from this leader to a target member, on the latch
 * protocol: the request is written into the group node's data ({@link HandOffRequest});
 * the distlock members between leader and target re-enter the queue behind the target
 * ({@link HandOffWatch}) while the target keeps its node; once no node sits between, the
 * leader drains its tenure and deletes its node, so that the target's node is first and
 * the target leads; the future completes with the target's epoch once ZooKeeper has the
 * target first. Every step is a watch on the group's children, no thread waits.
 * <p>
 * Nothing of this is needed for safety: the latch protocol alone decides who leads, one
 * node at a time; a hand-off only moves nodes and deletes the leader's. A member that
 * does not move within the wait (a raw {@code LeaderLatch}, a distlock member of a
 * version without hand-offs, a member cut off) fails the hand-off and the leader keeps
 * its tenure; so do the target leaving, the leader losing its tenure, or a lost
 * connection. The request is cleared either way.
 */
final class HandOff {

	private static final Logger logger = LoggerFactory.getLogger(HandOff.class);

	/** How long the members between leader and target may take to queue again. */
	static final Duration MOVE_WAIT = Duration.ofSeconds(10);

	private final Engine engine;

	private final Leader leader;

	private final String group;

	private final String queuePath;

	private final HandOffRequest request;

	private final long targetEpoch;

	// The member id of each node when the hand-off began, to name those that stay.
	private final Map<String, String> memberIds;

	private final CompletableFuture<Long> done = new CompletableFuture<>();

	private final Watcher watcher = this::changed;

	// Guarded by this: whether the leader's node was given up, and the group's latch
	// nodes as last read.
	private boolean handedOver;

	private List<String> latest = List.of();

	HandOff(Engine engine, Leader leader, String group, String queuePath, HandOffRequest request, long targetEpoch,
			Map<String, String> memberIds) {
		this.engine = engine;
		this.leader = leader;
		this.group = group;
		this.queuePath = queuePath;
		this.request = request;
		this.targetEpoch = targetEpoch;
		this.memberIds = Map.copyOf(memberIds);
	}

	/**
	 * Plan the hand-off of a group this instance leads, as the group is now.
	 * @param view the group as ZooKeeper has it now
	 * @param ours the name of our leading latch node
	 * @param targetId the target's member id
	 * @param failure the start of the message of a refusal, naming group and member
	 * @throws IllegalArgumentException if no member of the group or several have the id
	 * @throws IllegalStateException if our node is not first
	 */
	static HandOff plan(Engine engine, Leader leader, LeadershipGroup view, String ours, String targetId,
			String failure) {
		List<LockParticipant> targets = view.participants()
			.stream()
			.filter((participant) -> participant.memberId().equals(targetId))
			.toList();
		if (targets.isEmpty()) {
			throw new IllegalArgumentException(
					failure + "it is not a live member of the group, whose members are " + view.memberIds());
		}
		if (targets.size() > 1) {
			throw new IllegalArgumentException(failure + targets.size() + " members of the group have that id");
		}
		if (view.participants().isEmpty() || !view.participants().get(0).name().equals(ours)) {
			throw new IllegalStateException(failure + "this instance does not lead it");
		}
		Map<String, String> memberIds = new HashMap<>();
		view.participants().forEach((participant) -> memberIds.put(participant.name(), participant.memberId()));
		LockParticipant target = targets.get(0);
		return new HandOff(engine, leader, view.group(), view.node(), new HandOffRequest(ours, target.name(), targetId),
				target.fencingToken(), memberIds);
	}

	/**
	 * Write the request and follow the group until the target leads.
	 * @param wait how long the members between leader and target may take to move
	 * @return completes with the target's epoch once it leads
	 */
	CompletableFuture<Long> start(Duration wait) {
		logger.info("Handing group '{}' over to '{}'", this.group, this.request.targetId());
		this.engine.threads()
			.timer()
			.schedule(System.nanoTime() + wait.toNanos(), () -> this.engine.threads().request(this::timedOut));
		// A session lost meanwhile takes the watch along: the future ends all the same.
		Duration limit = wait.multipliedBy(4);
		this.engine.threads()
			.timer()
			.schedule(System.nanoTime() + limit.toNanos(), () -> this.engine.threads()
				.request(() -> fail("the target did not lead within " + limit + " (its leader may be gone)")));
		try {
			this.engine.requests().setData(this.queuePath, this.request.bytes(), -1, (event) -> {
				KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
				if (code == KeeperException.Code.OK) {
					read();
				}
				else {
					fail("writing the request failed: " + code);
				}
			});
		}
		catch (Exception ex) {
			fail("writing the request failed: " + ex);
		}
		this.done.whenComplete((epoch, ex) -> clear());
		return this.done;
	}

	private void read() {
		if (this.done.isDone()) {
			return;
		}
		try {
			this.engine.requests().children(this.queuePath, this.watcher, this::children);
		}
		catch (Exception ex) {
			fail("reading the group failed: " + ex);
		}
	}

	private void changed(WatchedEvent event) {
		if (event.getType() == Watcher.Event.EventType.NodeChildrenChanged) {
			read();
		}
		else if (event.getType() != Watcher.Event.EventType.None) {
			fail("the group's node changed: " + event.getType());
		}
	}

	private void children(CuratorEvent event) {
		KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
		if (code != KeeperException.Code.OK) {
			fail("reading the group failed: " + code);
			return;
		}
		List<String> latches = new ArrayList<>();
		for (String child : event.getChildren()) {
			if (QueueDriver.isNode(child, QueueDriver.LATCH_NAME)) {
				latches.add(child);
			}
		}
		latches.sort((a, b) -> Integer.compare(HandOffRequest.sequence(a), HandOffRequest.sequence(b)));
		String first = latches.isEmpty() ? null : latches.get(0);
		synchronized (this) {
			this.latest = latches;
			if (this.handedOver) {
				// Until the leader's node is gone (its calls drain), it is first.
				if (this.request.target().equals(first)) {
					this.done.complete(this.targetEpoch);
				}
				else if (!this.request.from().equals(first)) {
					fail("'" + this.request.targetId() + "' left before leading; the next member leads");
				}
				return;
			}
			if (!this.request.from().equals(first) || !this.leader.leads()) {
				fail("this instance no longer leads it");
				return;
			}
			if (!latches.contains(this.request.target())) {
				fail("'" + this.request.targetId() + "' left the group");
				return;
			}
			if (latches.stream().anyMatch(this.request::movesBehind)) {
				return;
			}
			this.handedOver = true;
		}
		// The tenure ends (its calls drained first), then the node goes.
		this.leader.handOver().whenComplete((deleted, ex) -> {
			if (ex != null) {
				fail("deleting the leader's node failed: " + ex);
			}
		});
	}

	private void timedOut() {
		List<String> between = new ArrayList<>();
		synchronized (this) {
			if (this.handedOver || this.done.isDone()) {
				return;
			}
			for (String node : this.latest) {
				if (this.request.movesBehind(node)) {
					between.add(this.memberIds.getOrDefault(node, node));
				}
			}
		}
		fail("the members " + between + " between it and '" + this.request.targetId()
				+ "' did not move behind it (a raw LeaderLatch or a member without hand-offs keeps its place)");
	}

	private void fail(String why) {
		this.done.completeExceptionally(new IllegalStateException(
				"Transfer of group '" + this.group + "' to member '" + this.request.targetId() + "' failed: " + why));
	}

	/** Clear the request, unless another replaced it. */
	private void clear() {
		try {
			this.engine.requests().data(this.queuePath, null, (event) -> {
				if (event.getResultCode() == KeeperException.Code.OK.intValue()
						&& this.request.equals(HandOffRequest.parse(event.getData()))) {
					sendClear(event.getStat().getVersion());
				}
			});
		}
		catch (Exception ex) {
			logger.debug("Could not clear the hand-off request of {}: {}", this.queuePath, ex.toString());
		}
	}

	private void sendClear(int version) {
		try {
			this.engine.requests().setData(this.queuePath, HandOffRequest.NONE, version, (event) -> {
			});
		}
		catch (Exception ex) {
			logger.debug("Could not clear the hand-off request of {}: {}", this.queuePath, ex.toString());
		}
	}

	/** The leader that hands over. */
	interface Leader {

		/** Whether it still leads. */
		boolean leads();

		/**
		 * End the tenure (its calls drained first), delete its node and queue again.
		 * @return completes once the node's delete is confirmed
		 */
		CompletableFuture<Void> handOver();

	}

}
