package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.PartitionRevokedEvent;
import io.github.distlock.core.Partitions;

/**
 * The partitioned groups one {@link CuratorLeadership} is a member of, one
 * {@link PartitionGroup} each, bound to the engine's session. While the locks
 * {@linkplain Drain drain}, every group stands aside (its partitions given up, its member
 * node deleted) and joins again when the drain ends.
 */
final class PartitionGroups implements Drain.Listener {

	private static final Logger logger = LoggerFactory.getLogger(PartitionGroups.class);

	private final Engine engine;

	private final String memberId;

	private final Duration drain;

	// Guarded by this.
	private final Map<String, PartitionGroup> groups = new TreeMap<>();

	private boolean closed;

	/**
	 * @param drain how long giving up a partition waits at most for the work entered
	 * under it
	 */
	PartitionGroups(Engine engine, String memberId, Duration drain) {
		this.engine = engine;
		this.memberId = memberId;
		this.drain = drain;
		engine.drain().addListener(this);
	}

	/** Join a group, or return the membership of it. */
	synchronized Partitions join(String group, int count) {
		if (count < 1) {
			throw new LockConfigurationException("Leadership.partitions('" + group + "', " + count
					+ "): the number of partitions must be at least 1, was " + count);
		}
		String name = LockPath.parse(group).value();
		if (this.closed) {
			throw new LockAcquisitionException(
					"Cannot join partitioned group '" + name + "': the leader election of this client was closed",
					null);
		}
		PartitionGroup existing = this.groups.get(name);
		if (existing != null) {
			if (existing.count() != count) {
				throw new LockConfigurationException(
						"Leadership.partitions('" + name + "', " + count + "): this instance is a member of group '"
								+ name + "' with " + existing.count() + " partitions, not " + count);
			}
			return existing;
		}
		PartitionGroup joined = new PartitionGroup(this.engine, name, count, this.memberId, this.drain, this::leaving);
		this.groups.put(name, joined);
		this.engine.session().bind(joined);
		if (this.engine.drain().since() == null) {
			joined.join();
		}
		return joined;
	}

	private synchronized void leaving(PartitionGroup group) {
		this.groups.remove(group.group(), group);
	}

	@Override
	public synchronized void drained() {
		for (PartitionGroup group : this.groups.values()) {
			group.standAside(PartitionRevokedEvent.Reason.DRAINED);
		}
		if (!this.groups.isEmpty()) {
			logger.info("Draining: out of the partitioned groups {} until the drain ends", this.groups.keySet());
		}
	}

	@Override
	public synchronized void undrained() {
		for (PartitionGroup group : this.groups.values()) {
			group.join();
		}
	}

	/** Leave every group, waiting at most 15 s for the deletes. */
	void close() {
		List<PartitionGroup> leaving;
		synchronized (this) {
			this.closed = true;
			leaving = new ArrayList<>(this.groups.values());
		}
		this.engine.drain().removeListener(this);
		List<CompletableFuture<Void>> deletes = new ArrayList<>();
		for (PartitionGroup group : leaving) {
			deletes.add(group.leave());
		}
		try {
			CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)).get(15, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			logger.debug("Partition nodes not confirmed deleted on close: {}", ex.toString());
		}
	}

}
