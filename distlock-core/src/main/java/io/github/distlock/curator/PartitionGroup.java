package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.OwnedPartition;
import io.github.distlock.core.PartitionAssignedEvent;
import io.github.distlock.core.PartitionGuard;
import io.github.distlock.core.PartitionHash;
import io.github.distlock.core.PartitionListener;
import io.github.distlock.core.PartitionRevokedEvent;
import io.github.distlock.core.PartitionRevokedEvent.Reason;
import io.github.distlock.core.Partitions;

/**
 * This instance's membership of one partitioned group: its member node, its view of the
 * live members ({@link PartitionMembers}) and of each partition's owner node, and the
 * owner nodes it holds ({@link PartitionOwnership}). Each partition's desired owner is
 * {@link PartitionHash#ownerOf} the live members; this instance creates a partition's
 * owner node only when it is the desired owner, the members' view is settled (no read of
 * it in flight) and the node was read absent; it gives up an owner node it holds as soon
 * as it no longer is: listeners told, guards drained, then the node deleted. Everything
 * is driven by ZooKeeper's answers and one watcher (the members' children, each owner
 * node), and by the connection's events, which the engine's session tells it. State is
 * guarded by this object's monitor.
 */
final class PartitionGroup implements Partitions, SessionBound {

	private static final Logger logger = LoggerFactory.getLogger(PartitionGroup.class);

	/** Pause while the namespace node is made sure of. */
	private static final Duration NOT_READY = Duration.ofMillis(50);

	private final Engine engine;

	private final String group;

	private final int count;

	private final String memberId;

	private final byte[] data;

	private final Duration drain;

	private final PartitionOwnerNodes ownerNodes;

	private final PartitionMembers members;

	private final PartitionEvents events;

	private final Consumer<PartitionGroup> leaving;

	private final Watcher watcher = this::changed;

	// Guarded by this.

	private boolean joined;

	private boolean left;

	// Each partition's owner as last read (null: none, or not read yet), whether it was
	// read, and our ownership of it.
	private final @Nullable String[] owners;

	private final boolean[] ownerRead;

	private final @Nullable PartitionOwnership[] owned;

	// Owner nodes of ours given up while they may still exist (the connection was
	// suspended, a delete was not confirmed, a node made as we left): never claimed
	// again, deleted once the connection is back in their session.
	private final Map<Integer, PartitionOwnership> abandoned = new HashMap<>();

	PartitionGroup(Engine engine, String group, int count, String memberId, Duration drain,
			Consumer<PartitionGroup> leaving) {
		this.engine = engine;
		this.group = group;
		this.count = count;
		this.memberId = memberId;
		this.data = memberId.getBytes(StandardCharsets.UTF_8);
		this.drain = drain;
		this.leaving = leaving;
		String root = ZKPaths.makePath("partitions", group);
		this.ownerNodes = new PartitionOwnerNodes(engine, this, group, ZKPaths.makePath(root, "owners"), count,
				this.data, this.watcher, new PartitionOwnerNodes.Answers() {

					@Override
					public void present(int index, String owner, Stat stat) {
						ownerPresent(index, owner, stat);
					}

					@Override
					public void absent(int index) {
						ownerAbsent(index);
					}

				});
		this.members = new PartitionMembers(engine, this, ZKPaths.makePath(root, "members"), memberId, this.watcher,
				this::settled);
		this.events = new PartitionEvents(engine.threads());
		this.owners = new String[count];
		this.ownerRead = new boolean[count];
		this.owned = new PartitionOwnership[count];
	}

	// The application's side

	@Override
	public String group() {
		return this.group;
	}

	@Override
	public int count() {
		return this.count;
	}

	@Override
	public synchronized List<OwnedPartition> owned() {
		List<OwnedPartition> owned = new ArrayList<>();
		for (PartitionOwnership ownership : this.owned) {
			if (ownership != null && !ownership.isRevoking()) {
				owned.add(ownership.snapshot());
			}
		}
		return owned;
	}

	@Override
	public synchronized Optional<String> ownerOf(int index) {
		return Optional.ofNullable(this.owners[checked("ownerOf", index)]);
	}

	@Override
	public synchronized PartitionGuard enter(int index) {
		PartitionOwnership ownership = this.owned[checked("enter", index)];
		if (ownership == null) {
			throw new IllegalStateException("Partitions.enter(" + index + "): partition " + index + " of group '"
					+ this.group + "' is not owned by this instance ('" + this.memberId + "')");
		}
		return ownership.enter(this.memberId);
	}

	private int checked(String method, int index) {
		if (index < 0 || index >= this.count) {
			throw new IllegalArgumentException("Partitions." + method + "(" + index + "): group '" + this.group
					+ "' has partitions 0 to " + (this.count - 1));
		}
		return index;
	}

	@Override
	public void addListener(PartitionListener listener) {
		this.events.add(listener);
	}

	@Override
	public CompletableFuture<Void> leave() {
		this.leaving.accept(this);
		CompletableFuture<Void> done;
		synchronized (this) {
			if (this.left) {
				return CompletableFuture.completedFuture(null);
			}
			done = standAside(Reason.LEFT);
			this.left = true;
		}
		return done.whenComplete((ok, ex) -> {
			this.engine.session().unbind(this);
			this.members.unwatch();
			this.ownerNodes.unwatch();
		});
	}

	/** Become a member: the member node made, the partitions read. */
	synchronized void join() {
		if (this.joined || this.left) {
			return;
		}
		this.joined = true;
		this.engine.threads().request(this::startWhenReady);
	}

	/**
	 * Stop being a member: the member node deleted, and every partition owned given up.
	 * @return completes once the deletes are confirmed
	 */
	synchronized CompletableFuture<Void> standAside(Reason reason) {
		if (!this.joined) {
			return CompletableFuture.completedFuture(null);
		}
		this.joined = false;
		List<CompletableFuture<Void>> done = new ArrayList<>(this.members.leave());
		for (PartitionOwnership ownership : this.owned) {
			if (ownership != null) {
				if (!ownership.isRevoking()) {
					revoke(ownership, reason, true);
				}
				done.add(ownership.ended());
			}
		}
		return CompletableFuture.allOf(done.toArray(CompletableFuture[]::new));
	}

	private void startWhenReady() {
		synchronized (this) {
			if (!this.joined || this.engine.isClosed()) {
				return;
			}
			if (this.engine.session().isReady()) {
				this.members.join();
				this.ownerNodes.readAll();
				return;
			}
		}
		this.engine.session().prepareNamespace();
		this.engine.threads().requestAfter(NOT_READY, this::startWhenReady);
	}

	// The connection

	@Override
	public synchronized void suspended() {
		if (!this.engine.session().suspendedIsLost()) {
			return;
		}
		for (PartitionOwnership ownership : this.owned) {
			if (ownership != null && !ownership.isRevoking()) {
				this.abandoned.put(ownership.index(), ownership);
				revoke(ownership, Reason.SUSPENDED, false);
			}
		}
	}

	@Override
	public synchronized void lost() {
		Session session = this.engine.session();
		for (PartitionOwnership ownership : this.owned) {
			if (ownership != null && !ownership.isRevoking() && !session.isOfLaterSession(ownership.node())) {
				revoke(ownership, Reason.SESSION_LOST, false);
			}
		}
		this.abandoned.values().removeIf((ownership) -> !session.isOfLaterSession(ownership.node()));
		this.members.lost();
	}

	@Override
	public synchronized void reconnected() {
		if (this.left) {
			return;
		}
		long instance = this.engine.session().clientInstance();
		for (PartitionOwnership ownership : this.owned) {
			if (ownership != null && !ownership.isRevoking() && ownership.node().clientInstance() != instance) {
				// Its session was replaced, whether or not its loss was told yet.
				revoke(ownership, Reason.SESSION_LOST, false);
			}
		}
		for (PartitionOwnership ownership : new ArrayList<>(this.abandoned.values())) {
			if (ownership.node().clientInstance() == instance) {
				deleteAbandoned(ownership);
			}
			else {
				this.abandoned.remove(ownership.index(), ownership);
			}
		}
		if (this.joined) {
			this.members.reconnected();
			this.ownerNodes.readAll();
		}
	}

	// The members

	/** The members' view is settled: see what each partition needs. */
	private synchronized void settled() {
		for (int index = 0; index < this.count; index++) {
			evaluate(index);
		}
	}

	/**
	 * Give up the partition if we own it and should not, or create its node if we should
	 * own it and it has none.
	 */
	private void evaluate(int index) {
		List<String> live = this.members.live();
		String desired = (live != null && !live.isEmpty()) ? PartitionHash.ownerOf(live, index) : null;
		PartitionOwnership ownership = this.owned[index];
		if (ownership != null) {
			if (!ownership.isRevoking() && (!this.joined || (desired != null && !desired.equals(this.memberId)))) {
				revoke(ownership, Reason.REBALANCED, true);
			}
			return;
		}
		if (this.joined && this.memberId.equals(desired) && this.members.isMember() && this.ownerRead[index]
				&& this.owners[index] == null && !this.ownerNodes.isCreating(index)
				&& !this.abandoned.containsKey(index)) {
			this.ownerNodes.create(index);
		}
	}

	// The owner nodes

	private synchronized void ownerAbsent(int index) {
		if (!this.left) {
			this.owners[index] = null;
			this.ownerRead[index] = true;
			evaluate(index);
		}
	}

	private synchronized void ownerPresent(int index, String owner, Stat stat) {
		// A node of ours made as we left is deleted below; nothing else is looked at.
		if (this.left && !owner.equals(this.memberId)) {
			return;
		}
		this.owners[index] = owner;
		this.ownerRead[index] = true;
		PartitionOwnership ours = this.owned[index];
		if (ours != null && !ours.isRevoking() && ours.epoch() != stat.getCzxid()) {
			// Our node was replaced, its delete unseen.
			revoke(ours, Reason.NODE_DELETED, false);
		}
		if (this.owned[index] == null && !this.abandoned.containsKey(index) && owner.equals(this.memberId)
				&& stat.getEphemeralOwner() == sessionId()) {
			PartitionOwnership ownership = new PartitionOwnership(this.group, index,
					new LockNode(this.ownerNodes.path(index), stat.getCzxid(), stat.getEphemeralOwner(),
							this.engine.session().clientInstance()));
			if (this.joined) {
				this.owned[index] = ownership;
				this.events.assigned(new PartitionAssignedEvent(this.group, index, ownership.epoch(), this.memberId));
			}
			else {
				// Made as we left: never told, so no work to wait for; deleted.
				ownership.ended().complete(null);
				this.abandoned.put(index, ownership);
				deleteAbandoned(ownership);
			}
		}
		evaluate(index);
	}

	/**
	 * Give up an ownership: listeners told, then its guards drained (at most the drain
	 * time), then its node deleted if asked; then forgotten.
	 */
	private void revoke(PartitionOwnership ownership, Reason reason, boolean delete) {
		ownership.revoking(reason);
		Requests requests = this.engine.requests();
		this.events.revoked(new PartitionRevokedEvent(this.group, ownership.index(), ownership.epoch(), reason))
			.thenCompose((told) -> ownership.drained(this.engine.threads(), this.drain))
			.thenComposeAsync((drained) -> delete ? requests.deleteInSession(ownership.node())
					: CompletableFuture.<Void>completedFuture(null), this.engine.threads()::request)
			.whenComplete((deleted, ex) -> forget(ownership, ex));
	}

	private synchronized void forget(PartitionOwnership ownership, @Nullable Throwable failedDelete) {
		int index = ownership.index();
		if (failedDelete != null) {
			// Maybe still there, ours: deleted when the connection is back.
			logger.debug("Owner node {} not confirmed deleted: {}", ownership.node().path(), failedDelete.toString());
			this.abandoned.put(index, ownership);
		}
		if (this.owned[index] == ownership) {
			this.owned[index] = null;
		}
		ownership.ended().complete(null);
		evaluate(index);
	}

	/**
	 * Delete an abandoned node of ours once the work under its ownership ended: only then
	 * may another member own the partition.
	 */
	private void deleteAbandoned(PartitionOwnership ownership) {
		ownership.ended()
			.thenCompose((ended) -> this.engine.requests().deleteInSession(ownership.node()))
			.whenComplete((deleted, ex) -> {
				synchronized (this) {
					if (ex == null && this.abandoned.remove(ownership.index(), ownership) && !this.left) {
						this.ownerNodes.read(ownership.index());
					}
				}
			});
	}

	private long sessionId() {
		try {
			return this.engine.client().getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			return 0;
		}
	}

	private void changed(WatchedEvent event) {
		String path = event.getPath();
		if (event.getType() == Watcher.Event.EventType.None || path == null) {
			return;
		}
		synchronized (this) {
			if (this.left) {
				return;
			}
			if (this.members.isPath(path)) {
				this.members.read();
				return;
			}
			int index = this.ownerNodes.indexOf(path);
			if (index < 0) {
				return;
			}
			PartitionOwnership ownership = this.owned[index];
			if (event.getType() == Watcher.Event.EventType.NodeDeleted && ownership != null
					&& !ownership.isRevoking()) {
				logger.warn("The owner node {} of group '{}' was deleted while this instance owned it", path,
						this.group);
				revoke(ownership, Reason.NODE_DELETED, false);
			}
			if (event.getType() == Watcher.Event.EventType.NodeDeleted) {
				// Absent as of this event: the desired owner creates at once, and a node
				// made meanwhile refuses the create.
				ownerAbsent(index);
			}
			if (!this.ownerNodes.isCreating(index)) {
				this.ownerNodes.read(index);
			}
		}
	}

}
