package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The members of one partitioned group as one {@link PartitionGroup} sees them, and its
 * own member node: a protected ephemeral-sequential {@code member-} node under the
 * group's {@code members} node, whose data is the member id. The children are watched
 * (their parent's existence while it has none), each new child's data read once (a node's
 * data never changes); the view is <em>settled</em> when no read of it is in flight, and
 * only then are the live members given: a partition's owner node deleted after a member
 * joined is never judged by a view that misses the member (ZooKeeper tells a client the
 * change of the children before the later delete, and answers its reads in order).
 * Guarded by the group's monitor, which every call holds and every answer takes.
 */
final class PartitionMembers {

	private static final Logger logger = LoggerFactory.getLogger(PartitionMembers.class);

	private static final String PREFIX = "member-";

	/** Pause before a create that ZooKeeper refused is tried again. */
	private static final Duration RETRY = Duration.ofSeconds(1);

	private final Engine engine;

	private final Object lock;

	private final String path;

	private final String memberId;

	private final byte[] data;

	private final Watcher watcher;

	private final Runnable settled;

	// Our member node, the handle it was made through, and whether one is being made.
	private @Nullable String node;

	private long nodeInstance;

	private boolean creating;

	// Our member node of an earlier session, deleted once the new one is made.
	private @Nullable String replaced;

	private boolean joined;

	// The children read, by name: their member id and session.
	private final Map<String, Member> children = new HashMap<>();

	// Children whose data is being read, and reads of the children in flight.
	private final Set<String> unread = new HashSet<>();

	private int reads;

	private @Nullable List<String> live;

	private record Member(String id, long session) {
	}

	PartitionMembers(Engine engine, Object lock, String path, String memberId, Watcher watcher, Runnable settled) {
		this.engine = engine;
		this.lock = lock;
		this.path = path;
		this.memberId = memberId;
		this.data = memberId.getBytes(StandardCharsets.UTF_8);
		this.watcher = watcher;
		this.settled = settled;
	}

	boolean isPath(String path) {
		return this.path.equals(path);
	}

	/** The live members' ids, sorted, once the view is settled; null while it is not. */
	@Nullable List<String> live() {
		return this.live;
	}

	/** Whether our member node exists, as far as we know. */
	boolean isMember() {
		return this.node != null;
	}

	/** Make our member node if there is none, and read the members. */
	void join() {
		this.joined = true;
		if (this.node == null && !this.creating) {
			create();
		}
		read();
	}

	private void create() {
		this.creating = true;
		Requests requests = this.engine.requests();
		requests.trySend(() -> {
			requests.createParents(this.path,
					(refused) -> logger.warn("Cannot create the members of '{}': {}", this.path, refused.toString()));
			requests.create(ZKPaths.makePath(this.path, PREFIX), this.data, CreateMode.EPHEMERAL_SEQUENTIAL,
					this::created);
		}, (ex) -> this.creating = false);
	}

	private void created(CuratorEvent event) {
		synchronized (this.lock) {
			this.creating = false;
			KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
			if (code == KeeperException.Code.OK) {
				if (!this.joined) {
					this.engine.requests().deleteInBackground(event.getName());
					return;
				}
				this.node = event.getName();
				this.nodeInstance = this.engine.session().clientInstance();
				String replaced = this.replaced;
				this.replaced = null;
				if (replaced != null) {
					// Its name is ours alone: deleting it deletes no other member's.
					this.engine.requests().deleteInBackground(replaced);
				}
				read();
			}
			else if (!Requests.isConnectionProblem(code)) {
				logger.warn("Could not create the member node under {}: {}; trying again in {}", this.path, code,
						RETRY);
				this.engine.threads().requestAfter(RETRY, () -> {
					synchronized (this.lock) {
						if (this.joined && this.node == null && !this.creating) {
							create();
						}
					}
				});
			}
			// Otherwise made again when the connection returns.
		}
	}

	/** Read the children again, and watch them. */
	void read() {
		this.reads++;
		this.live = null;
		Requests requests = this.engine.requests();
		if (!requests.trySend(() -> requests.children(this.path, this.watcher, this::childrenRead),
				(ex) -> logger.debug("Could not read the members of {}: {}", this.path, ex.toString()))) {
			this.reads--;
		}
	}

	private void childrenRead(CuratorEvent event) {
		synchronized (this.lock) {
			this.reads--;
			KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
			if (code == KeeperException.Code.NONODE) {
				this.children.clear();
				this.unread.clear();
				// Watch for the parent's creation: its first member.
				this.engine.requests().trySend(() -> this.engine.requests().stat(this.path, this.watcher, (exists) -> {
					if (exists.getResultCode() == KeeperException.Code.OK.intValue()) {
						synchronized (this.lock) {
							read();
						}
					}
				}), (ex) -> {
				});
			}
			else if (code != KeeperException.Code.OK) {
				// Read again when the connection returns.
				return;
			}
			else {
				List<String> names = event.getChildren();
				this.children.keySet().retainAll(names);
				for (String name : names) {
					if (!this.children.containsKey(name) && this.unread.add(name)) {
						readChild(name);
					}
				}
			}
			settleIfRead();
		}
	}

	private void readChild(String name) {
		Requests requests = this.engine.requests();
		if (!requests.trySend(() -> requests.data(ZKPaths.makePath(this.path, name), null, (event) -> {
			synchronized (this.lock) {
				if (this.unread.remove(name) && event.getResultCode() == KeeperException.Code.OK.intValue()) {
					byte[] bytes = (event.getData() != null) ? event.getData() : new byte[0];
					this.children.put(name,
							new Member(new String(bytes, StandardCharsets.UTF_8), event.getStat().getEphemeralOwner()));
				}
				settleIfRead();
			}
		}), (ex) -> {
		})) {
			this.unread.remove(name);
		}
	}

	private void settleIfRead() {
		if (this.reads != 0 || !this.unread.isEmpty()) {
			return;
		}
		Set<String> ids = new TreeSet<>();
		for (Member member : this.children.values()) {
			ids.add(member.id());
		}
		this.live = List.copyOf(ids);
		this.settled.run();
	}

	/** The session ended: our member node (unless of a later session) with it. */
	void lost() {
		String node = this.node;
		if (node != null && !this.engine.session().isOfLaterSession(new LockNode(node, 0, 0, this.nodeInstance))) {
			this.node = null;
		}
	}

	/** The connection is back: our node made again in a new session, the view read. */
	void reconnected() {
		String node = this.node;
		if (node != null && this.nodeInstance != this.engine.session().clientInstance()) {
			// The old session's, which a server may keep a while longer: deleted once the
			// new one exists, so other members never see this one gone.
			this.replaced = node;
			this.node = null;
		}
		join();
	}

	/**
	 * Stop being a member: our member node deleted, and any other of this session with
	 * our member id (a create whose answer was lost with the connection).
	 * @return the deletes, completing once confirmed
	 */
	List<CompletableFuture<Void>> leave() {
		this.joined = false;
		List<CompletableFuture<Void>> deletes = new ArrayList<>();
		String node = this.node;
		this.node = null;
		if (node != null) {
			deletes.add(this.engine.requests().deleteConfirmed(node));
		}
		if (this.replaced != null) {
			deletes.add(this.engine.requests().deleteConfirmed(this.replaced));
			this.replaced = null;
		}
		long session = sessionId();
		this.children.forEach((name, member) -> {
			String path = ZKPaths.makePath(this.path, name);
			if (member.id().equals(this.memberId) && member.session() == session && !path.equals(node)) {
				deletes.add(this.engine.requests().deleteConfirmed(path));
			}
		});
		return deletes;
	}

	/** Stop watching the members. */
	void unwatch() {
		this.engine.requests().removeWatch(this.watcher, this.path, Watcher.WatcherType.Any);
	}

	private long sessionId() {
		try {
			return this.engine.client().getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			return 0;
		}
	}

}
