package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.LockQueue;

/**
 * Who holds and who waits for the locks at one path, as ZooKeeper has them now, decided
 * by the protocols' own {@link QueueDriver}s, as they decide for our own nodes. Reads
 * with Curator's blocking calls: for the endpoint, not for hot paths.
 */
final class QueueInspector {

	private final CuratorFramework client;

	QueueInspector(CuratorFramework client) {
		this.client = client;
	}

	/** The queues of every kind of lock at the path that has nodes. */
	List<LockQueue> inspect(LockPath path) throws Exception {
		List<LockQueue> queues = new ArrayList<>(3);
		String mutex = QueuePaths.of(LockKind.MUTEX, path);
		add(queues, LockProtocol.MUTEX, mutex, exclusiveQueue(mutex));
		String readWrite = QueuePaths.of(LockKind.READ, path);
		add(queues, LockProtocol.READ_WRITE, readWrite, readWriteQueue(readWrite));
		String semaphore = QueuePaths.of(LockKind.SEMAPHORE, path);
		add(queues, LockProtocol.SEMAPHORE, semaphore, semaphoreQueue(semaphore));
		return queues;
	}

	/**
	 * The holders and waiters of one protocol's queue at the given node, in queue order;
	 * empty if it has none.
	 */
	List<LockParticipant> participants(LockProtocol protocol, String queuePath) throws Exception {
		return switch (protocol) {
			case MUTEX -> exclusiveQueue(queuePath);
			case READ_WRITE -> readWriteQueue(queuePath);
			case SEMAPHORE -> semaphoreQueue(queuePath);
			case LEADER_LATCH -> latchQueue(queuePath);
		};
	}

	/** The children of a node, none if it is gone. */
	List<String> children(String path) throws Exception {
		try {
			return this.client.getChildren().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

	private static void add(List<LockQueue> queues, LockProtocol protocol, String node,
			List<LockParticipant> participants) {
		if (!participants.isEmpty()) {
			queues.add(new LockQueue(protocol, node, participants));
		}
	}

	private List<LockParticipant> exclusiveQueue(String queuePath) throws Exception {
		Map<String, Node> nodes = readSorted(queuePath, children(queuePath), QueueDriver.LOCK_NAME);
		List<String> present = new ArrayList<>(nodes.keySet());
		Map<String, Long> czxids = czxids(nodes);
		List<LockParticipant> participants = new ArrayList<>(nodes.size());
		nodes.forEach((name, node) -> participants
			.add(node.participant(QueueDriver.MUTEX.holds(present, czxids, name), null, node.stat.getCzxid())));
		return participants;
	}

	private List<LockParticipant> latchQueue(String queuePath) throws Exception {
		Map<String, Node> nodes = readSorted(queuePath, children(queuePath), QueueDriver.LATCH_NAME);
		List<LockParticipant> participants = new ArrayList<>(nodes.size());
		nodes.forEach(
				(name, node) -> participants.add(node.participant(participants.isEmpty(), null, node.stat.getCzxid())));
		return participants;
	}

	private List<LockParticipant> readWriteQueue(String queuePath) throws Exception {
		Map<String, Node> nodes = readSorted(queuePath, children(queuePath), QueueDriver.READ_NAME,
				QueueDriver.WRITE_NAME);
		Map<String, Long> czxids = czxids(nodes);
		// A reader at its own session's writer's place entered that writer's hold (a
		// downgrade): it holds while the writer does, and carries the writer's token.
		Map<String, Node> enteredWriters = new LinkedHashMap<>();
		nodes.forEach((name, node) -> {
			if (QueueDriver.isNode(name, QueueDriver.READ_NAME)) {
				int sequence = QueueDriver.sequence(name, QueueDriver.READ_NAME);
				nodes.forEach((other, writer) -> {
					if (QueueDriver.isNode(other, QueueDriver.WRITE_NAME)
							&& QueueDriver.sequence(other, QueueDriver.WRITE_NAME) == sequence
							&& writer.stat.getEphemeralOwner() == node.stat.getEphemeralOwner()) {
						enteredWriters.put(name, writer);
					}
				});
			}
		});
		List<String> queue = new ArrayList<>(nodes.keySet());
		queue.removeAll(enteredWriters.keySet());
		List<LockParticipant> participants = new ArrayList<>(nodes.size());
		nodes.forEach((name, node) -> {
			Node writer = enteredWriters.get(name);
			if (writer != null) {
				participants.add(node.participant(QueueDriver.WRITE.holds(queue, czxids, writer.name), "read",
						writer.stat.getCzxid()));
				return;
			}
			boolean write = QueueDriver.isNode(name, QueueDriver.WRITE_NAME);
			QueueDriver driver = write ? QueueDriver.WRITE : QueueDriver.READ;
			participants.add(node.participant(driver.holds(queue, czxids, name), write ? "write" : "read",
					node.stat.getCzxid()));
		});
		return participants;
	}

	private List<LockParticipant> semaphoreQueue(String semaphorePath) throws Exception {
		int permits = Integer.MAX_VALUE;
		try {
			byte[] data = this.client.getData().forPath(semaphorePath);
			permits = Integer.parseInt(new String(data, StandardCharsets.UTF_8));
		}
		catch (KeeperException.NoNodeException | NumberFormatException ex) {
			// Not written by distlock: every lease counts as held.
		}
		String guardPath = ZKPaths.makePath(semaphorePath, SemaphoreAcquisition.GUARD);
		Map<String, Node> guards = readSorted(guardPath, children(guardPath), QueueDriver.LOCK_NAME);
		List<String> guardQueue = new ArrayList<>(guards.keySet());
		Map<String, Long> guardCzxids = czxids(guards);
		long guardHolder = guards.entrySet()
			.stream()
			.filter((entry) -> QueueDriver.MUTEX.holds(guardQueue, guardCzxids, entry.getKey()))
			.mapToLong((entry) -> entry.getValue().stat.getEphemeralOwner())
			.findFirst()
			.orElse(0);
		String leasesPath = ZKPaths.makePath(semaphorePath, SemaphoreAcquisition.LEASES);
		Map<String, Node> leases = readSorted(leasesPath, children(leasesPath), QueueDriver.LEASE_NAME);
		String guardHoldersNewest = null;
		for (Map.Entry<String, Node> lease : leases.entrySet()) {
			if (guardHolder != 0 && lease.getValue().stat.getEphemeralOwner() == guardHolder) {
				guardHoldersNewest = lease.getKey();
			}
		}
		List<String> holders = QueueDriver.lease(permits).holders(new ArrayList<>(leases.keySet()), guardHoldersNewest);
		List<LockParticipant> participants = new ArrayList<>(leases.size() + guards.size());
		leases.forEach((name, node) -> {
			boolean holds = holders.contains(name);
			participants.add(node.participant(holds, holds ? "lease" : "waiting", node.stat.getCzxid()));
		});
		// A holder of the guard without a lease yet, and those queued for the
		// guard, wait.
		guards.forEach((name, node) -> participants.add(node.participant(false, "waiting", node.stat.getCzxid())));
		return participants;
	}

	/**
	 * Read the children of the given names, leaving out those gone meanwhile, in queue
	 * order.
	 */
	private Map<String, Node> readSorted(String parent, List<String> children, String... lockNames) throws Exception {
		Map<String, Node> read = read(parent, filter(children, lockNames));
		Map<String, Node> sorted = new LinkedHashMap<>();
		for (String name : QueueDriver.sorted(new ArrayList<>(read.keySet()), czxids(read), lockNames)) {
			sorted.put(name, read.get(name));
		}
		return sorted;
	}

	private static List<String> filter(List<String> children, String... lockNames) {
		List<String> nodes = new ArrayList<>(children.size());
		for (String child : children) {
			for (String lockName : lockNames) {
				if (QueueDriver.isNode(child, lockName)) {
					nodes.add(child);
					break;
				}
			}
		}
		return nodes;
	}

	private static Map<String, Long> czxids(Map<String, Node> nodes) {
		Map<String, Long> czxids = new HashMap<>();
		nodes.forEach((name, node) -> czxids.put(name, node.stat.getCzxid()));
		return czxids;
	}

	/** Read the given children, in order, leaving out those gone meanwhile. */
	private Map<String, Node> read(String parent, List<String> children) throws Exception {
		Map<String, Node> nodes = new LinkedHashMap<>();
		for (String child : children) {
			Stat stat = new Stat();
			try {
				byte[] data = this.client.getData().storingStatIn(stat).forPath(ZKPaths.makePath(parent, child));
				nodes.put(child, new Node(child, stat, (data != null) ? data : new byte[0]));
			}
			catch (KeeperException.NoNodeException ex) {
				// Released meanwhile.
			}
		}
		return nodes;
	}

	/** The sequence number ZooKeeper appended to a sequential node's name. */
	static long sequence(String name) {
		for (String lockName : new String[] { QueueDriver.LOCK_NAME, QueueDriver.READ_NAME, QueueDriver.WRITE_NAME,
				QueueDriver.LEASE_NAME, QueueDriver.LATCH_NAME }) {
			if (QueueDriver.isNode(name, lockName)) {
				return QueueDriver.sequence(name, lockName);
			}
		}
		return Long.MAX_VALUE;
	}

	private record Node(String name, Stat stat, byte[] data) {

		LockParticipant participant(boolean holds, @Nullable String side, long token) {
			return new LockParticipant(this.name, sequence(this.name), token,
					Instant.ofEpochMilli(this.stat.getCtime()), holds, side, this.stat.getEphemeralOwner(), this.data);
		}

	}

}
