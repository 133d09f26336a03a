package io.github.distlock.curator;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.LeaderChangedEvent;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.ObservedLeader;

/**
 * The observation of one group's leader by an instance that need not take part: a watch
 * on the group node's children (on its existence while it has none), set again with every
 * read; each read looks at the first latch node, and a leader other than the last one
 * seen is told. The connection's return reads again (a watch set meanwhile fires then, or
 * was kept by the session). No thread waits, nothing polls.
 */
final class Observation implements SessionBound {

	private static final Logger logger = LoggerFactory.getLogger(Observation.class);

	private final Engine engine;

	private final String group;

	private final String queuePath;

	private final Consumer<LeaderChangedEvent> changes;

	private final Watcher watcher = this::changed;

	// Guarded by this.
	private @Nullable ObservedLeader leader;

	Observation(Engine engine, String group, String queuePath, Consumer<LeaderChangedEvent> changes) {
		this.engine = engine;
		this.group = group;
		this.queuePath = queuePath;
		this.changes = changes;
	}

	/**
	 * Read the leader now (a blocking read), and follow it from then on.
	 * @return the leader now
	 */
	Optional<ObservedLeader> start() {
		List<LockParticipant> participants = LatchReads.read(this.engine, this.queuePath);
		seen(participants.isEmpty() ? null : participants.get(0));
		read();
		return last();
	}

	/** The leader as last seen. */
	synchronized Optional<ObservedLeader> last() {
		return Optional.ofNullable(this.leader);
	}

	@Override
	public void suspended() {
	}

	@Override
	public void reconnected() {
		read();
	}

	@Override
	public void lost() {
	}

	private void changed(WatchedEvent event) {
		if (event.getType() != Watcher.Event.EventType.None) {
			read();
		}
	}

	private void read() {
		try {
			this.engine.requests().children(this.queuePath, this.watcher, this::children);
		}
		catch (Exception ex) {
			logger.debug("Could not read the group '{}': {}", this.group, ex.toString());
		}
	}

	private void children(CuratorEvent event) {
		try {
			follow(event);
		}
		catch (Exception ex) {
			logger.debug("Could not read the leader of group '{}': {}", this.group, ex.toString());
		}
	}

	private void follow(CuratorEvent event) throws Exception {
		KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
		if (code == KeeperException.Code.NONODE) {
			seen(null);
			// Watch for the group's creation: its first member.
			this.engine.requests().stat(this.queuePath, this.watcher, (exists) -> {
				if (exists.getResultCode() == KeeperException.Code.OK.intValue()) {
					// Made between the two reads: a watch on its existence would wait
					// for its delete.
					read();
				}
			});
			return;
		}
		if (code != KeeperException.Code.OK) {
			// Read again when the connection comes back.
			return;
		}
		List<String> latches = new ArrayList<>();
		for (String child : event.getChildren()) {
			if (QueueDriver.isNode(child, QueueDriver.LATCH_NAME)) {
				latches.add(child);
			}
		}
		if (latches.isEmpty()) {
			seen(null);
			return;
		}
		latches.sort((a, b) -> Integer.compare(HandOffRequest.sequence(a), HandOffRequest.sequence(b)));
		String first = latches.get(0);
		this.engine.requests().data(ZKPaths.makePath(this.queuePath, first), null, (data) -> {
			if (data.getResultCode() == KeeperException.Code.OK.intValue()) {
				Stat stat = data.getStat();
				byte[] bytes = (data.getData() != null) ? data.getData() : new byte[0];
				seen(new LockParticipant(first, HandOffRequest.sequence(first), stat.getCzxid(),
						Instant.ofEpochMilli(stat.getCtime()), true, null, stat.getEphemeralOwner(), bytes));
			}
			// Gone meanwhile: its delete fired the watch, which reads again.
		});
	}

	private synchronized void seen(@Nullable LockParticipant first) {
		ObservedLeader previous = this.leader;
		if ((first == null && previous == null)
				|| (first != null && previous != null && first.fencingToken() == previous.epoch())) {
			return;
		}
		if (first != null && previous != null && first.fencingToken() < previous.epoch()) {
			// An answer older than one already seen.
			return;
		}
		ObservedLeader now = (first != null)
				? new ObservedLeader(this.group, first.memberId(), first.fencingToken(), Instant.now()) : null;
		this.leader = now;
		this.changes.accept(new LeaderChangedEvent(this.group, now, previous));
	}

}
