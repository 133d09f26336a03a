package io.github.distlock.curator;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.utils.ZKPaths;

import io.github.distlock.core.Election;
import io.github.distlock.core.InvalidLockPathException;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockAdmin;
import io.github.distlock.core.LockInUse;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.LockQueue;

/**
 * The administration view of one client's lock root: walks each protocol's subtree depth
 * first, and reads every node that has queue nodes as the protocol's own
 * {@link QueueInspector} reads one path. A node's children are either queue nodes (named
 * as the protocol names them) or the next segments of longer lock paths; a semaphore
 * keeps its queue in two children of its node. Blocking reads, one {@code getChildren}
 * per node and one {@code getData} per queue node.
 */
final class CuratorLockAdmin implements LockAdmin {

	private final QueueInspector inspector;

	private final Session session;

	CuratorLockAdmin(QueueInspector inspector, Session session) {
		this.inspector = inspector;
		this.session = session;
	}

	@Override
	public List<LockInUse> locks() {
		List<LockInUse> locks = new ArrayList<>();
		for (LockProtocol protocol : List.of(LockProtocol.MUTEX, LockProtocol.READ_WRITE, LockProtocol.SEMAPHORE)) {
			walk(protocol, (path, queue) -> locks.add(new LockInUse(path, queue)));
		}
		return List.copyOf(locks);
	}

	@Override
	public List<Election> leaders() {
		List<Election> elections = new ArrayList<>();
		walk(LockProtocol.LEADER_LATCH,
				(path, queue) -> elections.add(new Election(path.value(), queue.node(), queue.participants())));
		return List.copyOf(elections);
	}

	private void walk(LockProtocol protocol, Found found) {
		this.session.awaitConnection();
		String root = "/" + protocol.subtree();
		try {
			for (String child : sorted(this.inspector.children(root))) {
				walk(protocol, root, child, found);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException("Interrupted while reading the lock nodes under " + root, ex);
		}
		catch (Exception ex) {
			throw new LockAcquisitionException("Reading the lock nodes under " + root + " failed: " + ex, ex);
		}
	}

	private void walk(LockProtocol protocol, String root, String relative, Found found) throws Exception {
		String node = ZKPaths.makePath(root, relative);
		List<String> children = this.inspector.children(node);
		boolean queued = false;
		List<String> segments = new ArrayList<>(children.size());
		for (String child : children) {
			if (isQueueNode(protocol, child)) {
				queued = true;
			}
			else {
				segments.add(child);
			}
		}
		if (queued) {
			report(protocol, node, relative, found);
		}
		for (String segment : sorted(segments)) {
			walk(protocol, root, relative + "/" + segment, found);
		}
	}

	private void report(LockProtocol protocol, String node, String relative, Found found) throws Exception {
		List<LockParticipant> participants = this.inspector.participants(protocol, node);
		if (participants.isEmpty()) {
			return;
		}
		LockPath path;
		try {
			path = LockPath.parse(relative);
		}
		catch (InvalidLockPathException ex) {
			// Made by a client that does not name its nodes as lock paths: not a lock.
			return;
		}
		found.lock(path, new LockQueue(protocol, node, participants));
	}

	/** Whether a child of a node is a node of the protocol's queue, not a segment. */
	private static boolean isQueueNode(LockProtocol protocol, String child) {
		return switch (protocol) {
			case MUTEX -> QueueDriver.isNode(child, QueueDriver.LOCK_NAME);
			case READ_WRITE ->
				QueueDriver.isNode(child, QueueDriver.READ_NAME) || QueueDriver.isNode(child, QueueDriver.WRITE_NAME);
			case SEMAPHORE -> child.equals(SemaphoreAcquisition.GUARD) || child.equals(SemaphoreAcquisition.LEASES);
			case LEADER_LATCH -> QueueDriver.isNode(child, QueueDriver.LATCH_NAME);
		};
	}

	private static List<String> sorted(List<String> names) {
		List<String> sorted = new ArrayList<>(names);
		sorted.sort(null);
		return sorted;
	}

	@FunctionalInterface
	private interface Found {

		void lock(LockPath path, LockQueue queue);

	}

}
