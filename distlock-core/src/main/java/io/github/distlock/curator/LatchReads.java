package io.github.distlock.curator;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockParticipant;

/**
 * Blocking reads of a group's latch nodes, for inspection and observation: every node's
 * data and stat, in queue order.
 */
final class LatchReads {

	private LatchReads() {
	}

	/** The latch nodes of a group, in queue order (blocking reads, for inspection). */
	static List<LockParticipant> read(Engine engine, String queuePath) {
		engine.session().awaitConnection();
		CuratorFramework client = engine.client();
		try {
			List<String> children;
			try {
				children = client.getChildren().forPath(queuePath);
			}
			catch (KeeperException.NoNodeException ex) {
				return List.of();
			}
			Map<String, Stat> stats = new HashMap<>();
			Map<String, byte[]> data = new HashMap<>();
			for (String name : children) {
				if (!QueueDriver.isNode(name, QueueDriver.LATCH_NAME)) {
					continue;
				}
				Stat stat = new Stat();
				try {
					byte[] bytes = client.getData().storingStatIn(stat).forPath(ZKPaths.makePath(queuePath, name));
					stats.put(name, stat);
					data.put(name, (bytes != null) ? bytes : new byte[0]);
				}
				catch (KeeperException.NoNodeException ex) {
					// Left meanwhile.
				}
			}
			Map<String, Long> czxids = new HashMap<>();
			stats.forEach((name, stat) -> czxids.put(name, stat.getCzxid()));
			List<String> sorted = QueueDriver.sorted(new ArrayList<>(stats.keySet()), czxids, QueueDriver.LATCH_NAME);
			List<LockParticipant> participants = new ArrayList<>(sorted.size());
			boolean first = true;
			for (String name : sorted) {
				Stat stat = stats.get(name);
				participants.add(new LockParticipant(name, QueueDriver.sequence(name, QueueDriver.LATCH_NAME),
						stat.getCzxid(), Instant.ofEpochMilli(stat.getCtime()), first, null, stat.getEphemeralOwner(),
						data.get(name)));
				first = false;
			}
			return participants;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException("Interrupted while reading " + queuePath, ex);
		}
		catch (Exception ex) {
			throw new LockAcquisitionException("Reading " + queuePath + " failed: " + ex, ex);
		}
	}

}
