package io.github.distlock.curator;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.Leadership;
import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.LockPath;

/**
 * Preferred leaders, as Kafka's preferred leader election: a member preferred in a group
 * says so with a marker, and a leader that is not preferred hands its tenure (by
 * {@link Leadership#transferTo}, the safe hand-off) to the first preferred member of its
 * queue once that member has been live for the {@linkplain #setDelay delay}.
 * <p>
 * The marker of a preferred member is an ephemeral node
 * {@code /leader-preferred/<group>/<member id, URL-encoded>} of its session, outside the
 * latch directory, so that raw {@code LeaderLatch}es, which read every child of the latch
 * directory, never see it; it is made when the member joins the group and again in every
 * new session. It only says that the member prefers to lead: whether it is live is told
 * by its latch node alone (a member that refuses traffic or drains has left the group,
 * and has none). "Live for the delay" means one and the same latch node seen since then
 * by the leader: a member that leaves and joins again has a new node, and its delay
 * starts again, so a flapping member causes no hand-off. A leader that is preferred
 * itself never hands off for a preference, so two preferred members never trade the
 * tenure.
 * <p>
 * The leader follows its group with watches on the latch directory's and the marker
 * directory's children while it leads (nothing polls), and reads on a thread of its own,
 * made at the first tenure, so that a slow read never holds the engine's request thread.
 * A hand-off that fails (a raw {@code LeaderLatch} between keeps its place, the target
 * left) is not tried again for the same node of the target.
 */
public final class PreferredLeaders implements LeadershipListener, SessionBound {

	private static final Logger logger = LoggerFactory.getLogger(PreferredLeaders.class);

	/** The subtree of the markers, directly under the lock root. */
	static final String SUBTREE = "leader-preferred";

	/** The delay unless set. */
	public static final Duration DEFAULT_DELAY = Duration.ofSeconds(10);

	private final Engine engine;

	private final Leadership leadership;

	private volatile boolean preferredEverywhere;

	private volatile Set<String> preferredGroups = Set.of();

	private volatile Duration delay = DEFAULT_DELAY;

	// The groups whose marker this instance keeps.
	private final Set<String> marked = ConcurrentHashMap.newKeySet();

	// The groups this instance leads, not preferred in them, and what it saw of them.
	private final Map<String, Watching> leading = new ConcurrentHashMap<>();

	// Guarded by this.
	private @Nullable ScheduledExecutorService reader;

	private boolean closed;

	/**
	 * Follow the tenures of the leadership (told first among its listeners) and the
	 * session of its engine.
	 */
	PreferredLeaders(Engine engine, Leadership leadership, List<LeadershipListener> listeners) {
		this.engine = engine;
		this.leadership = leadership;
		listeners.add(this);
		engine.session().bind(this);
	}

	/**
	 * Prefer this instance as the leader of every group it joins.
	 * @param preferred whether it is preferred everywhere
	 */
	public void setPreferred(boolean preferred) {
		this.preferredEverywhere = preferred;
		markJoined();
	}

	/**
	 * Prefer this instance as the leader of these groups (besides every group, if
	 * {@link #setPreferred preferred} everywhere).
	 * @param groups the groups' names
	 */
	public void setPreferredGroups(Collection<String> groups) {
		Set<String> names = new TreeSet<>();
		for (String group : groups) {
			names.add(LockPath.parse(group).value());
		}
		this.preferredGroups = Set.copyOf(names);
		markJoined();
	}

	/**
	 * How long a preferred member must have been live (one latch node, in the queue all
	 * along) before a leader of this instance that is not preferred hands off to it.
	 * @param delay the delay, not negative
	 */
	public void setDelay(Duration delay) {
		if (delay == null || delay.isNegative()) {
			throw new IllegalArgumentException(
					"PreferredLeaders.setDelay: the delay must not be negative, was " + delay);
		}
		this.delay = delay;
	}

	/** The delay a leader of this instance waits before handing off. */
	public Duration getDelay() {
		return this.delay;
	}

	/**
	 * Whether this instance is preferred as the leader of the group.
	 * @param group the group's name
	 * @return whether it is
	 */
	public boolean isPreferred(String group) {
		return this.preferredEverywhere || this.preferredGroups.contains(group);
	}

	// The preferred member's side: its markers

	/** The instance joins the group: mark it, if preferred in it. */
	void joined(String group) {
		if (isPreferred(group) && this.marked.add(group)) {
			run(() -> mark(group));
		}
	}

	private void markJoined() {
		for (String group : this.leadership.groups()) {
			joined(group);
		}
	}

	private void mark(String group) {
		String path = markerPath(group);
		CuratorFramework client = this.engine.client();
		try {
			this.engine.session().awaitConnection();
			long session = client.getZookeeperClient().getZooKeeper().getSessionId();
			Stat stat = client.checkExists().forPath(path);
			if (stat != null && stat.getEphemeralOwner() == session) {
				return;
			}
			if (stat != null) {
				// Of a session this client gave up, which the server still keeps.
				client.delete().guaranteed().forPath(path);
			}
			client.create()
				.creatingParentContainersIfNeeded()
				.withMode(CreateMode.EPHEMERAL)
				.forPath(path, this.leadership.memberId().getBytes(StandardCharsets.UTF_8));
		}
		catch (KeeperException.NodeExistsException ex) {
			// Made meanwhile, by this session.
		}
		catch (Exception ex) {
			// Marked again at the next reconnection.
			logger.warn("Could not mark this member preferred in group '{}': {}", group, ex.toString());
		}
	}

	private String markerPath(String group) {
		return ZKPaths.makePath(markersOf(group),
				URLEncoder.encode(this.leadership.memberId(), StandardCharsets.UTF_8));
	}

	private static String markersOf(String group) {
		return ZKPaths.makePath(SUBTREE, group);
	}

	@Override
	public void suspended() {
	}

	@Override
	public void lost() {
	}

	@Override
	public void reconnected() {
		for (String group : this.marked) {
			run(() -> mark(group));
		}
		for (String group : this.leading.keySet()) {
			run(() -> check(group));
		}
	}

	// The leader's side

	@Override
	public void granted(LeadershipGrantedEvent event) {
		if (isPreferred(event.group())) {
			return;
		}
		Watching watching = new Watching(event.group(), event.epoch());
		this.leading.put(event.group(), watching);
		run(() -> check(event.group()));
	}

	@Override
	public void revoked(LeadershipRevokedEvent event) {
		this.leading.computeIfPresent(event.group(),
				(group, watching) -> (watching.epoch == event.epoch()) ? null : watching);
	}

	/**
	 * Read the group, watching its latch nodes and its markers: start the delay of the
	 * first preferred member in the queue, or hand off to it once its delay has passed.
	 */
	private void check(String group) {
		Watching watching = this.leading.get(group);
		if (watching == null || !this.leadership.isLeader(group) || isPreferred(group)) {
			return;
		}
		LockParticipant candidate;
		try {
			candidate = candidate(watching);
		}
		catch (Exception ex) {
			// A connection problem: read again at the reconnection.
			logger.debug("Could not read the preferred members of group '{}': {}", group, ex.toString());
			return;
		}
		String target;
		synchronized (watching) {
			if (candidate == null) {
				watching.pending = null;
				return;
			}
			long now = System.nanoTime();
			if (watching.pending == null || !watching.pending.equals(candidate.name())) {
				watching.pending = candidate.name();
				watching.since = now;
			}
			long remaining = this.delay.toNanos() - (now - watching.since);
			if (remaining > 0) {
				if (watching.timer != null) {
					watching.timer.cancel(false);
				}
				watching.timer = schedule(remaining, () -> check(group));
				return;
			}
			watching.pending = null;
			watching.tried.add(candidate.name());
			target = candidate.memberId();
		}
		handOff(group, target);
	}

	private @Nullable LockParticipant candidate(Watching watching) throws Exception {
		String queuePath = QueuePaths.of(LockKind.LEADER, LockPath.parse(watching.group));
		String markers = markersOf(watching.group);
		CuratorFramework client = this.engine.client();
		Set<String> preferred = new HashSet<>();
		try {
			for (String name : client.getChildren().usingWatcher(watching.watcher).forPath(markers)) {
				preferred.add(URLDecoder.decode(name, StandardCharsets.UTF_8));
			}
		}
		catch (KeeperException.NoNodeException ex) {
			client.checkExists().usingWatcher(watching.watcher).forPath(markers);
		}
		try {
			client.getChildren().usingWatcher(watching.watcher).forPath(queuePath);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
		List<LockParticipant> queue = LatchReads.read(this.engine, queuePath);
		for (int i = 1; i < queue.size(); i++) {
			LockParticipant participant = queue.get(i);
			if (preferred.contains(participant.memberId()) && !watching.tried.contains(participant.name())) {
				return participant;
			}
		}
		return null;
	}

	private void handOff(String group, String target) {
		logger.info("Handing the leadership of group '{}' to its preferred member '{}'", group, target);
		try {
			this.leadership.transferTo(group, target).whenComplete((epoch, ex) -> {
				if (ex != null) {
					logger.warn("Could not hand the leadership of group '{}' to its preferred member '{}': {}", group,
							target, ex.getMessage());
				}
			});
		}
		catch (RuntimeException ex) {
			// It stopped leading, or the target left, since the read.
			logger.debug("No hand-off of group '{}' to '{}': {}", group, target, ex.getMessage());
		}
	}

	private void run(Runnable work) {
		ScheduledExecutorService reader = reader();
		if (reader != null) {
			reader.execute(work);
		}
	}

	private @Nullable ScheduledFuture<?> schedule(long nanos, Runnable work) {
		ScheduledExecutorService reader = reader();
		return (reader != null) ? reader.schedule(work, nanos, TimeUnit.NANOSECONDS) : null;
	}

	private synchronized @Nullable ScheduledExecutorService reader() {
		if (this.closed) {
			return null;
		}
		if (this.reader == null) {
			this.reader = Executors.newSingleThreadScheduledExecutor((task) -> {
				Thread thread = new Thread(task, "distlock-preferred-leaders");
				thread.setDaemon(true);
				return thread;
			});
		}
		return this.reader;
	}

	/**
	 * Stop: delete this instance's markers, stop following its tenures and the session.
	 */
	void close() {
		ScheduledExecutorService reader;
		synchronized (this) {
			this.closed = true;
			reader = this.reader;
		}
		this.leading.clear();
		if (reader != null) {
			reader.shutdownNow();
		}
		for (String group : this.marked) {
			this.engine.requests().deleteInBackground(markerPath(group));
		}
		this.marked.clear();
		this.engine.session().unbind(this);
	}

	/** A group this instance leads, not preferred in it. */
	private final class Watching {

		final String group;

		final long epoch;

		final Watcher watcher;

		// The latch node of the preferred member whose delay runs, and since when.
		@Nullable String pending;

		long since;

		// The check at the end of the delay.
		@Nullable ScheduledFuture<?> timer;

		// The latch nodes handed off to already: not tried again.
		final Set<String> tried = new HashSet<>();

		Watching(String group, long epoch) {
			this.group = group;
			this.epoch = epoch;
			this.watcher = (event) -> {
				if (event.getType() != Watcher.Event.EventType.None) {
					run(() -> check(group));
				}
			};
		}

	}

}
