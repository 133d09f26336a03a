package io.github.distlock.actuate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;

import io.github.distlock.core.HeldLock;
import io.github.distlock.core.InvalidLockPathException;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;
import io.github.distlock.core.WaitingLock;

/**
 * The {@code distlock} actuator endpoint: the locks this instance holds and waits for
 * ({@code GET /actuator/distlock}), and, for one lock path, its holders and queue as
 * ZooKeeper sees them, for every kind of lock at that path
 * ({@code GET /actuator/distlock/orders/42}).
 */
@Endpoint(id = "distlock")
public class DistlockEndpoint {

	private final Locks locks;

	private final @Nullable CuratorFramework client;

	/**
	 * Create the endpoint.
	 * @param locks the locks of this instance
	 * @param client the client the locks live on (with their namespace), or {@code null}
	 * if there is none, in which case the per-path view is not available
	 */
	public DistlockEndpoint(Locks locks, @Nullable CuratorFramework client) {
		this.locks = locks;
		this.client = client;
	}

	/**
	 * List the locks this instance holds and the acquisitions that wait for theirs.
	 * @return the locks
	 */
	@ReadOperation
	public LocksDescriptor locks() {
		List<HeldLockDescriptor> held = this.locks.heldLocks()
			.stream()
			.sorted(Comparator.comparing(HeldLock::since))
			.map(HeldLockDescriptor::of)
			.toList();
		List<WaitingLockDescriptor> waiting = this.locks.waitingLocks()
			.stream()
			.sorted(Comparator.comparing(WaitingLock::since))
			.map(WaitingLockDescriptor::of)
			.toList();
		return new LocksDescriptor(held, waiting);
	}

	/**
	 * Show the lock nodes of one path, for every kind of lock, as ZooKeeper has them now.
	 * @param path the segments of the lock path, as escaped in ZooKeeper
	 * @return the nodes, or {@code null} (404) if no lock of any kind has nodes there
	 */
	@ReadOperation
	public @Nullable PathDescriptor lock(@Selector(match = Match.ALL_REMAINING) String... path) {
		LockPath lockPath;
		try {
			lockPath = LockPath.parse(String.join("/", path));
		}
		catch (InvalidLockPathException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), "Invalid lock path");
		}
		return nodes(lockPath);
	}

	/**
	 * Read the lock nodes of one path, for every kind of lock, as ZooKeeper has them now.
	 * @param lockPath the lock path
	 * @return the nodes, or {@code null} if no lock of any kind has nodes there
	 */
	public @Nullable PathDescriptor nodes(LockPath lockPath) {
		CuratorFramework client = this.client;
		if (client == null) {
			throw new IllegalStateException("No CuratorFramework: the locks are not Curator's");
		}
		if (!client.getZookeeperClient().isConnected()) {
			throw new IllegalStateException("Not connected to ZooKeeper");
		}
		List<QueueDescriptor> queues = new ArrayList<>();
		try {
			String mutex = "/" + LockKind.MUTEX.subtree() + "/" + lockPath.value();
			addQueue(queues, "mutex", mutex, nodes(client, mutex, Role.QUEUE));
			String readWrite = "/" + LockKind.READ.subtree() + "/" + lockPath.value();
			addQueue(queues, "read_write", readWrite, nodes(client, readWrite, Role.READ_WRITE));
			for (LockKind kind : List.of(LockKind.NON_REENTRANT_MUTEX, LockKind.SEMAPHORE)) {
				String base = "/" + kind.subtree() + "/" + lockPath.value();
				List<NodeDescriptor> nodes = new ArrayList<>(nodes(client, base + "/leases", Role.LEASE));
				nodes.addAll(nodes(client, base + "/locks", Role.WAITING));
				addQueue(queues, kind.name().toLowerCase(Locale.ROOT), base, nodes);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while reading lock nodes", ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Reading lock nodes failed: " + ex, ex);
		}
		return queues.isEmpty() ? null : new PathDescriptor(lockPath.value(), queues);
	}

	private static void addQueue(List<QueueDescriptor> queues, String kind, String node, List<NodeDescriptor> nodes) {
		if (!nodes.isEmpty()) {
			queues.add(new QueueDescriptor(kind, node, nodes));
		}
	}

	private static List<NodeDescriptor> nodes(CuratorFramework client, String parent, Role role) throws Exception {
		List<String> children;
		try {
			children = client.getChildren().forPath(parent);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		List<String> sorted = new ArrayList<>(children);
		sorted.sort(Comparator.comparingLong(DistlockEndpoint::sequence).thenComparing(Comparator.naturalOrder()));
		List<NodeDescriptor> nodes = new ArrayList<>(sorted.size());
		boolean writerFirst = false;
		for (String child : sorted) {
			Stat stat = new Stat();
			byte[] data;
			try {
				data = client.getData().storingStatIn(stat).forPath(parent + "/" + child);
			}
			catch (KeeperException.NoNodeException ex) {
				continue;
			}
			boolean write = child.contains("__WRIT__");
			boolean holder = switch (role) {
				case QUEUE -> nodes.isEmpty();
				case LEASE -> true;
				case WAITING -> false;
				// Readers hold together until the first writer; a writer first holds
				// alone.
				case READ_WRITE -> {
					if (nodes.isEmpty()) {
						writerFirst = write;
						yield true;
					}
					yield !writerFirst && !write && nodes.stream().allMatch((node) -> node.holder);
				}
			};
			String side = switch (role) {
				case READ_WRITE -> write ? "write" : "read";
				case LEASE -> "lease";
				case WAITING -> "waiting";
				case QUEUE -> null;
			};
			nodes.add(new NodeDescriptor(child, sequence(child), stat.getCzxid(), Instant.ofEpochMilli(stat.getCtime()),
					holder, side, "0x" + Long.toHexString(stat.getEphemeralOwner()), NodeIdentity.parse(data)));
		}
		return nodes;
	}

	/** The sequence number ZooKeeper appended to a sequential node's name. */
	static long sequence(String name) {
		int start = name.length();
		while (start > 0 && Character.isDigit(name.charAt(start - 1))) {
			start--;
		}
		if (start == name.length() || name.length() - start > 19) {
			return Long.MAX_VALUE;
		}
		return Long.parseLong(name.substring(start));
	}

	private enum Role {

		/** Children queue for one holder, the first. */
		QUEUE,

		/** Read and write nodes of a read/write lock. */
		READ_WRITE,

		/** Each child is a held lease. */
		LEASE,

		/** Children wait for a lease. */
		WAITING

	}

	/**
	 * The locks this instance holds and waits for.
	 *
	 * @param held the held locks, oldest first
	 * @param waiting the acquisitions waiting for their lock, oldest first
	 */
	public record LocksDescriptor(List<HeldLockDescriptor> held,
			List<WaitingLockDescriptor> waiting) implements OperationResponseBody {

	}

	/**
	 * One held lock.
	 *
	 * @param path the lock path
	 * @param kind the kind of lock
	 * @param template the path template naming it in metrics
	 * @param thread the thread that acquired it
	 * @param since when it was acquired
	 * @param fencingToken its fencing token
	 * @param state what this instance knows about it ({@code HELD}, {@code IN_DOUBT},
	 * {@code LOST})
	 */
	public record HeldLockDescriptor(String path, String kind, String template, String thread, Instant since,
			long fencingToken, String state) {

		static HeldLockDescriptor of(HeldLock lock) {
			return new HeldLockDescriptor(lock.path().value(), LockTags.kind(lock.kind()), lock.path().template(),
					lock.thread(), lock.since(), lock.fencingToken(), lock.state().name());
		}

	}

	/**
	 * One acquisition waiting for its lock.
	 *
	 * @param path the lock path
	 * @param kind the kind of lock
	 * @param template the path template naming it in metrics
	 * @param thread the waiting thread
	 * @param since when it started to wait
	 */
	public record WaitingLockDescriptor(String path, String kind, String template, String thread, Instant since) {

		static WaitingLockDescriptor of(WaitingLock lock) {
			return new WaitingLockDescriptor(lock.path().value(), LockTags.kind(lock.kind()), lock.path().template(),
					lock.thread(), lock.since());
		}

	}

	/**
	 * The lock nodes of one path.
	 *
	 * @param path the lock path
	 * @param locks one entry per kind of lock that has nodes at the path
	 */
	public record PathDescriptor(String path, List<QueueDescriptor> locks) implements OperationResponseBody {

	}

	/**
	 * The nodes of one kind of lock at a path.
	 *
	 * @param kind {@code mutex}, {@code read_write}, {@code non_reentrant_mutex} or
	 * {@code semaphore}
	 * @param node the lock's ZooKeeper node, relative to the namespace
	 * @param nodes the holders and waiters, holders first, then in queue order
	 */
	public record QueueDescriptor(String kind, String node, List<NodeDescriptor> nodes) {

	}

	/**
	 * One participant's node.
	 *
	 * @param name the node name
	 * @param sequence its sequence number
	 * @param fencingToken the zxid that created it (the fencing token of its holder)
	 * @param created when it was created
	 * @param holder whether it holds the lock
	 * @param side {@code read} or {@code write} for a read/write lock, {@code lease} or
	 * {@code waiting} for a semaphore or non-reentrant mutex
	 * @param session the ZooKeeper session that owns it
	 * @param identity who created it, from its data
	 */
	public record NodeDescriptor(String name, long sequence, long fencingToken, Instant created, boolean holder,
			@Nullable String side, String session, @Nullable NodeIdentity identity) {

	}

}
