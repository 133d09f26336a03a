package io.github.distlock.history;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.HeldLock;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.history.HoldRecord.Access;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ServerWatches;
import io.github.distlock.testsupport.ZooKeeperEnsemble;
import io.github.distlock.testsupport.ZooKeeperNodes;

/**
 * One run of the history checker: starts the servers, the distlock nodes (one of them
 * behind a relay) and a raw Curator client, runs their actors and the fault injector for
 * the given time, lets everything come to rest, checks what must be left (nothing), and
 * judges the history. Everything random is drawn from generators seeded from
 * {@link Settings#seed()}: the operations of each actor and the faults' kinds and times
 * repeat with the seed; the interleavings depend on scheduling as well.
 */
final class CheckerRun {

	/** Number of lock paths. */
	static final int PATHS = 3;

	/** Number of leadership groups. */
	static final int GROUPS = 2;

	/**
	 * How long the calm leadership phase lasts: no member leaves or relinquishes, and no
	 * fault but the two session ends of the phase (see {@link #calm()}).
	 */
	static final Duration CALM = Duration.ofSeconds(8);

	/**
	 * How long after the run's start the steered phase may begin another downgrade across
	 * a session's end (see {@link #steerDowngrades}).
	 */
	static final Duration STEERING = Duration.ofSeconds(4);

	/** How many downgrades across a session's end the steered phase sets up. */
	static final int STEERED_SCENES = 2;

	/**
	 * The distlock node whose locks are under the {@code LOST} connection-loss policy
	 * (the others are under {@code SUSPENDED}).
	 */
	static final int LOST_POLICY_NODE = 1;

	/**
	 * The distlock node whose leadership member is on an engine of its own, which its
	 * actor drains and undrains (its locks are not refused meanwhile).
	 */
	static final int DRAINING_NODE = 0;

	/** Namespace of the run's nodes. */
	static final String NAMESPACE = Faults.NAMESPACE;

	private final Settings settings;

	private final History history = new History();

	private final FencedLocks store = new FencedLocks(this.history);

	private final AtomicInteger ops = new AtomicInteger();

	private final AtomicInteger holdIds = new AtomicInteger();

	private final Map<String, AtomicInteger> opsByActor = new ConcurrentHashMap<>();

	private final Map<Integer, HoldRecord> open = new ConcurrentHashMap<>();

	private final List<HoldRecord> holds = new ArrayList<>();

	private final List<Violation> violations = new ArrayList<>();

	private long runStart;

	private final Map<Integer, AtomicInteger> pausing = new ConcurrentHashMap<>();

	private final List<Node> nodes = new ArrayList<>();

	private final Leads leads = new Leads(this);

	private final List<LeaderMember> members = new ArrayList<>();

	private final List<HoldWatcher> watchers = new ArrayList<>();

	private final LatchDeletes latchDeletes = new LatchDeletes(this);

	private final Transfers transfers = new Transfers(this);

	private final Owners owners = new Owners(this);

	private final AtomicInteger leaderWrites = new AtomicInteger();

	private volatile @Nullable FaultInjector injector;

	private boolean queuesAtCeiling;

	private boolean parentsMadeAgain;

	private @Nullable LatchPresence presence;

	private volatile boolean stopping;

	private volatile boolean faultsOver;

	private volatile long calmFrom = Long.MAX_VALUE;

	private volatile long calmTo = Long.MAX_VALUE;

	private volatile boolean steering;

	private volatile boolean downgradesSteered;

	private final AtomicInteger steeredParts = new AtomicInteger();

	CheckerRun(Settings settings) {
		this.settings = settings;
	}

	static String path(int index) {
		return "p" + index;
	}

	/** The name of a leadership group. */
	static String group(int index) {
		return "g" + index;
	}

	static int pathIndex(String path) {
		return Integer.parseInt(path.substring(1));
	}

	/** Permits of the semaphore at a path: one (an exclusive semaphore) or two. */
	static int permits(int pathIndex) {
		return 1 + (pathIndex % 2);
	}

	/** The key of a lock in the store and the history: its subtree and path. */
	static String key(LockKind kind, String path) {
		return kind.subtree() + "/" + path;
	}

	/**
	 * Run it.
	 * @return what was found
	 */
	Result execute() throws Exception {
		Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
		long started = System.nanoTime();
		FaultInjector faults;
		ServerWatches.enable();
		List<TcpRelay> lostPolicyRelays = new ArrayList<>();
		try (ZooKeeperEnsemble ensemble = Faults.shortSessionServers(this.settings.servers());
				TcpRelay relay = new TcpRelay(ensemble.port(0))) {
			ZooKeeperNodes clients = new ZooKeeperNodes(Faults.NODES);
			List<Thread> actors = new ArrayList<>();
			try {
				// The LOST-policy node reaches each server through a relay of its
				// own: the steered phase cuts them, ZooKeeper away from it alone.
				for (int server = 0; server < ensemble.size(); server++) {
					lostPolicyRelays.add(new TcpRelay(ensemble.port(server)));
				}
				String lostPolicyServers = lostPolicyRelays.stream()
					.map(TcpRelay::getConnectString)
					.collect(Collectors.joining(","));
				for (int i = 0; i < this.settings.distlockNodes(); i++) {
					boolean throughRelay = i == this.settings.distlockNodes() - 1;
					// One node's locks outlive a suspension: lost with the session.
					boolean lostPolicy = i == LOST_POLICY_NODE;
					Dispatches dispatches = new Dispatches();
					CuratorFramework client = (throughRelay || lostPolicy) ? relayedClient(clients,
							throughRelay ? relay.getConnectString() : lostPolicyServers, dispatches)
							: clients.client(ensemble.connectString(), dispatches);
					CuratorLocks locks = (lostPolicy ? Faults.NODES.withConnectionLossPolicy(ConnectionLossPolicy.LOST)
							: Faults.NODES)
						.createLocks(client);
					Node node = new Node(i, "node" + i + (throughRelay ? "/relay" : ""), client, dispatches, locks,
							throughRelay, this.history);
					locks.addLossListener((held) -> lossReported(node, held));
					this.nodes.add(node);
				}
				Dispatches dispatches = new Dispatches();
				Node curator = new Node(this.nodes.size(), "curator",
						clients.client(ensemble.connectString(), dispatches), dispatches, null, false, this.history);
				this.nodes.add(curator);
				for (Node node : this.nodes) {
					if (!node.client.blockUntilConnected(20, TimeUnit.SECONDS)) {
						throw new IllegalStateException(node.name + " did not connect");
					}
				}
				if (this.queuesAtCeiling) {
					queuesAtCeiling(ensemble, curator.client);
				}
				long seed = this.settings.seed();
				List<DistlockActor> steered = new ArrayList<>();
				for (Node node : this.nodes) {
					if (node.locks != null && this.settings.faults() && !this.queuesAtCeiling) {
						steered.add(new DistlockActor(this, node, node.name + "-steered",
								seed * 1_000_003L + 1_000 + node.index));
					}
				}
				if (!steered.isEmpty()) {
					// Two parts: the downgrades, then a session given up under a hold
					// (and with leadership a third: a leader's session given up).
					this.steeredParts.set(this.settings.leadership() ? 3 : 2);
					this.steering = true;
					Thread thread = new Thread(() -> steerDowngrades(steered), "history-steered");
					thread.setDaemon(true);
					actors.add(thread);
				}
				for (Node node : this.nodes) {
					if (node.locks != null) {
						HoldWatcher watcher = new HoldWatcher(this, node, node.index != LOST_POLICY_NODE,
								seed * 1_000_003L + 2_000 + node.index,
								this.steering && node.index == LOST_POLICY_NODE);
						this.watchers.add(watcher);
						Thread thread = new Thread(watcher, "history-" + node.name + "-watch");
						thread.setDaemon(true);
						actors.add(thread);
					}
				}
				for (Node node : this.nodes) {
					int count = (node.locks != null) ? this.settings.actorsPerNode() : this.settings.curatorActors();
					for (int t = 0; t < count; t++) {
						String name = node.name + "-" + t;
						long actorSeed = seed * 1_000_003L + actors.size();
						Runnable actor = (node.locks != null) ? new DistlockActor(this, node, name, actorSeed)
								: new CuratorActor(this, node, name, actorSeed);
						Thread thread = new Thread(actor, "history-" + name);
						thread.setDaemon(true);
						actors.add(thread);
					}
				}
				if (this.parentsMadeAgain) {
					Thread thread = new Thread(new ParentRemake(this, this.nodes.get(0), curator), "history-lone");
					thread.setDaemon(true);
					actors.add(thread);
				}
				if (this.settings.leadership()) {
					startLeadership(actors, seed);
					CuratorFramework observer = clients.client(ensemble.connectString());
					if (!observer.blockUntilConnected(20, TimeUnit.SECONDS)) {
						throw new IllegalStateException("the latch observer did not connect");
					}
					this.presence = new LatchPresence(this, this.members, observer);
					Thread presence = new Thread(this.presence, "history-presence");
					presence.setDaemon(true);
					actors.add(presence);
				}
				faults = new FaultInjector(this, ensemble, relay, lostPolicyRelays, seed ^ 0x5DEECE66DL);
				this.injector = faults;
				Thread faultThread = new Thread(faults, "history-faults");
				faultThread.setDaemon(true);
				this.history.record(History.Type.FAULT, "faults", 0, null, 0, "run starts: " + this.settings);
				long runStart = System.nanoTime();
				this.runStart = runStart;
				if (this.settings.leadership() && this.settings.duration().compareTo(CALM.multipliedBy(2)) >= 0) {
					this.calmFrom = runStart + this.settings.duration().toNanos() / 4;
					this.calmTo = this.calmFrom + CALM.toNanos();
				}
				actors.forEach(Thread::start);
				if (this.settings.faults()) {
					faultThread.start();
				}
				long end = runStart + this.settings.duration().toNanos();
				DistlockActor.park(TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()));
				this.faultsOver = true;
				faultThread.join(30_000);
				this.stopping = true;
				joinActors(actors);
				quiesce(ensemble, relay);
			}
			finally {
				this.stopping = true;
				clients.closeQuietly();
				lostPolicyRelays.forEach(TcpRelay::close);
			}
		}
		threadsEnd(before);
		HistoryAnalysis analysis = new HistoryAnalysis(this.history, this.nodes, faults.windows(),
				Faults.NODES.sessionTimeout());
		synchronized (this.holds) {
			analysis.sessionsEnded(faults.sessionEnds(), List.copyOf(this.holds));
		}
		List<Violation> judged = analysis.judge(this.store);
		LeadershipAnalysis leadership = new LeadershipAnalysis(this.history, this.leads, this.nodes,
				Faults.NODES.sessionTimeout());
		List<Violation> judgedLeadership = leadership.judge(this.store);
		List<Violation> judgedPresence = (this.presence != null)
				? this.presence.judge(this.history, faults.windows(), Faults.NODES.sessionTimeout()) : List.of();
		List<Violation> all = new ArrayList<>();
		synchronized (this.violations) {
			all.addAll(this.violations);
		}
		all.addAll(judged);
		all.addAll(judgedLeadership);
		all.addAll(judgedPresence);
		all.addAll(this.owners.judge(Faults.NODES.sessionTimeout()));
		all.addAll(this.transfers.judge(this.history, this.leads, faults.windows(), this.latchDeletes.deletions()));
		this.watchers.forEach((watcher) -> all.addAll(watcher.judge()));
		all.sort(java.util.Comparator.comparingLong(Violation::nanos));
		return new Result(this.settings, all,
				summary(analysis, faults) + "\n" + leadership.summary() + ", " + this.leaderWrites.get()
						+ " leader writes, " + this.transfers.succeeded() + " transfers, " + this.owners.summary()
						+ ((this.presence != null) ? ", " + this.presence.summary() : ""),
				TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), this.runStart, this.holds.size(),
				faults.windows().size(), this.leads.leads().size());
	}

	/**
	 * The steered phase's first part, at the run's start: downgrades across the end of
	 * the write hold's session, one at a time, on each distlock node in turn (the writer
	 * that takes over is of the next node), each asked for once the client is connected
	 * in its new session, until {@link #STEERED_SCENES} were set up or {@link #STEERING}
	 * has passed. Its second part is the {@link #LOST_POLICY_NODE}'s hold across a
	 * session its client gives up ({@link HoldWatcher}). The fault injector injects
	 * nothing else until both are over. The randomized workload runs beside it, and draws
	 * such downgrades too.
	 */
	private void steerDowngrades(List<DistlockActor> steered) {
		long until = this.runStart + STEERING.toNanos();
		try {
			int scenes = 0;
			for (int i = 0; scenes < STEERED_SCENES && System.nanoTime() < until && !this.stopping; i++) {
				scenes += steered.get(i % steered.size()).steeredDowngrade() ? 1 : 0;
			}
			this.history.record(History.Type.FAULT, "faults", 0, null, 0,
					"steered downgrades over: " + scenes + " downgrade(s) across a session's end set up");
		}
		finally {
			this.downgradesSteered = true;
			steeredPartOver();
		}
	}

	/**
	 * A part of the steered phase is over; once both are (the downgrades, then the hold
	 * across a session given up of the {@link #LOST_POLICY_NODE}'s {@link HoldWatcher}),
	 * the phase is: the calm phase, had it been due, begins now, for its whole length.
	 */
	void steeredPartOver() {
		if (this.steeredParts.decrementAndGet() > 0) {
			return;
		}
		long now = System.nanoTime();
		if (now > this.calmFrom) {
			this.calmTo = now + (this.calmTo - this.calmFrom);
			this.calmFrom = now;
		}
		this.history.record(History.Type.FAULT, "faults", 0, null, 0, "steered phase over");
		this.steering = false;
	}

	/**
	 * Whether only the steered phase's last part is left: with leadership, a latch
	 * member's session given up by its client ({@link FaultInjector}), once the
	 * downgrades and the hold across a session given up are over.
	 */
	boolean lastSteeredPartDue() {
		return this.settings.leadership() && this.steeredParts.get() == 1;
	}

	/** Whether the steered downgrades are over (the session given up comes next). */
	boolean downgradesSteered() {
		return this.downgradesSteered;
	}

	/**
	 * A client that connects through relays, and stays behind them: Curator's ensemble
	 * tracker would otherwise replace the connect string by the servers' own addresses,
	 * which it reads from the ensemble's configuration, and a session made after that
	 * (once one ended) would bypass the relays. Otherwise as the other nodes' clients.
	 */
	private static CuratorFramework relayedClient(ZooKeeperNodes clients, String connectString, Dispatches dispatches) {
		NodeOptions options = clients.options();
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.ensembleTracker(false)
			.namespace(options.namespace())
			.sessionTimeoutMs((int) options.sessionTimeout().toMillis())
			.connectionTimeoutMs((int) options.connectionTimeout().toMillis())
			.retryPolicy(new ExponentialBackoffRetry(100, 3, 1000))
			.connectionStateListenerManagerFactory(dispatches)
			.build();
		client.start();
		return clients.register(client);
	}

	/**
	 * Start the run with every lock queue's parent at the ceiling of sequence numbers
	 * (its child version at {@code 2147483647}, as after 2<sup>31</sup> child changes),
	 * where only creation order tells a node's place. One server only; raw Curator actors
	 * mis-order such queues themselves (docs/failure-model.md), so leave them out.
	 * @return this run
	 */
	CheckerRun withQueuesAtCeiling() {
		this.queuesAtCeiling = true;
		return this;
	}

	/**
	 * Let the fault injector also delete the parent of a mutex queue the distlock nodes
	 * use and make it again ({@link FaultInjector}), so that the rule that proves a new
	 * node alone from its number is tried against a parent whose count started again.
	 * @return this run
	 */
	CheckerRun withParentsMadeAgain() {
		this.parentsMadeAgain = true;
		return this;
	}

	/** Whether the fault injector deletes queue parents and makes them again. */
	boolean parentsMadeAgain() {
		return this.parentsMadeAgain;
	}

	private void queuesAtCeiling(ZooKeeperEnsemble ensemble, CuratorFramework client) throws Exception {
		for (int p = 0; p < PATHS; p++) {
			for (String parent : List.of("/mutex/" + path(p), "/rw/" + path(p), "/semaphore/" + path(p) + "/locks",
					"/semaphore/" + path(p) + "/leases")) {
				// Persistent, so that no container reaping puts the count back to zero.
				client.create().creatingParentsIfNeeded().forPath(parent);
				ensemble.keepChildVersion("/" + NAMESPACE + parent, Integer.MAX_VALUE);
			}
		}
		this.history.record(History.Type.FAULT, "faults", 0, null, 0,
				"every lock queue's parent at the ceiling of sequence numbers");
	}

	/**
	 * The leadership workload: every distlock node and the raw Curator client take part
	 * in every group, each with a thread of its own, and a watch for leaderless groups.
	 */
	private void startLeadership(List<Thread> actors, long seed) throws Exception {
		for (Node node : this.nodes) {
			// Members of odd-numbered distlock nodes lead under the LOST policy.
			this.members.add((node.locks != null) ? new DistlockMember(node, this.leads,
					(node.index % 2 == 1) ? ConnectionLossPolicy.LOST : ConnectionLossPolicy.SUSPENDED,
					node.index == DRAINING_NODE) : new LatchMember(node, this.leads));
		}
		for (LeaderMember member : this.members) {
			for (int g = 0; g < GROUPS; g++) {
				member.join(group(g));
			}
			Thread thread = new Thread(new LeaderActor(this, member, this.leads, seed * 1_000_003L + actors.size()),
					"history-" + member.name());
			thread.setDaemon(true);
			actors.add(thread);
		}
		Thread liveness = new Thread(new LeaderLiveness(this, this.members, leaderDeadline()), "history-liveness");
		liveness.setDaemon(true);
		actors.add(liveness);
		startPartitions(actors, seed);
	}

	/**
	 * The partitioned workload: every distlock node takes part in one partitioned group
	 * on an engine of its own, with a thread that joins, leaves and joins again, and a
	 * watch that every partition is owned again in the calm phase ({@link Owners}).
	 */
	private void startPartitions(List<Thread> actors, long seed) {
		for (Node node : this.nodes) {
			if (node.locks != null) {
				PartitionMember member = new PartitionMember(this, node, node.locks.connectionLossPolicy(), this.owners,
						seed * 1_000_003L + 3_000 + node.index);
				this.owners.add(member);
				member.join(0);
				Thread thread = new Thread(member, "history-" + member.name());
				thread.setDaemon(true);
				actors.add(thread);
			}
		}
		Thread owned = new Thread(this.owners, "history-owned");
		owned.setDaemon(true);
		actors.add(owned);
	}

	/**
	 * After the faults: every partition member joins, and each partition has exactly one
	 * owner; then all leave, and no member or owner node is left.
	 */
	private void quiescePartitions(CuratorFramework looker) throws Exception {
		List<PartitionMember> members = this.owners.members();
		members.forEach((member) -> member.join(0));
		if (!within(leaderDeadline(), () -> this.owners.unowned().isEmpty() && ownedOnce())) {
			violation("checker", 0, "partition/" + Owners.GROUP,
					"liveness: not every partition of " + Owners.GROUP + " owned exactly once within "
							+ leaderDeadline().toMillis() + " ms of every member joining,"
							+ " with every server up and every client connected: unowned " + this.owners.unowned()
							+ "; owner nodes " + described(looker, "/partitions/" + Owners.GROUP + "/owners"));
		}
		for (PartitionMember member : members) {
			member.leave(0);
		}
		Duration nodesGone = Faults.NODES.sessionTimeout().multipliedBy(3).plusSeconds(10);
		for (String parent : List.of("/partitions/" + Owners.GROUP + "/owners",
				"/partitions/" + Owners.GROUP + "/members")) {
			if (!within(nodesGone, () -> children(looker, parent).isEmpty())) {
				violation("checker", 0, "partition/" + Owners.GROUP, "nodes left: partition nodes left after every"
						+ " member left, under " + parent + ": " + described(looker, parent));
			}
		}
		members.forEach(PartitionMember::close);
	}

	private boolean ownedOnce() {
		long owned = this.owners.members()
			.stream()
			.map(PartitionMember::partitions)
			.filter(java.util.Objects::nonNull)
			.mapToLong((partitions) -> partitions.owned().size())
			.sum();
		return owned == Owners.COUNT;
	}

	/**
	 * How long a group whose members are connected may stay without a leader: a dead
	 * session's latch node is gone within the session timeout; as generous as the wait
	 * for lock nodes to go after quiescence.
	 */
	private static Duration leaderDeadline() {
		return Faults.NODES.sessionTimeout().multipliedBy(3).plusSeconds(10);
	}

	/**
	 * After the faults: every member joins every group, and exactly one leads each
	 * (invariants 5 and 8, docs/failure-model.md); then all leave, and no latch node is
	 * left, and every distlock tenure was told its end.
	 */
	private void quiesceLeadership(CuratorFramework looker) throws Exception {
		for (LeaderMember member : this.members) {
			for (int g = 0; g < GROUPS; g++) {
				member.join(group(g));
			}
		}
		for (int g = 0; g < GROUPS; g++) {
			String group = group(g);
			if (!within(leaderDeadline(),
					() -> this.members.stream().filter((member) -> member.leads(group)).count() == 1)) {
				violation("checker", 0, Leads.key(group), "liveness: not exactly one leader of " + group + " within "
						+ leaderDeadline().toMillis() + " ms of every member joining, with every server up and"
						+ " every client connected: leading "
						+ this.members.stream().filter((member) -> member.leads(group)).map(LeaderMember::name).toList()
						+ "; latch nodes " + described(looker, "/leader/" + group));
			}
		}
		for (LeaderMember member : this.members) {
			for (int g = 0; g < GROUPS; g++) {
				member.leave(group(g));
			}
		}
		Duration nodesGone = Faults.NODES.sessionTimeout().multipliedBy(3).plusSeconds(10);
		for (int g = 0; g < GROUPS; g++) {
			String parent = "/leader/" + group(g);
			if (!within(nodesGone, () -> children(looker, parent).isEmpty())) {
				violation("checker", 0, Leads.key(group(g)), "nodes left: latch nodes left after every member left "
						+ parent + ": " + described(looker, parent));
			}
		}
		quiescePartitions(looker);
		if (!within(Duration.ofSeconds(10),
				() -> this.leads.open().stream().noneMatch((lead) -> lead.member.distlock()))) {
			for (Leads.Lead lead : this.leads.open()) {
				if (lead.member.distlock()) {
					violation(lead.member.name(), 0, Leads.key(lead.group), "told once: never told that its tenure "
							+ lead.describe(this.history) + " ended, 10 s after it left " + lead.group);
				}
			}
		}
	}

	private void joinActors(List<Thread> actors) throws InterruptedException {
		// The longest operation: a wait of 4 s, its slack, a long pause, a forever wait
		// served once the others stopped.
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		for (Thread actor : actors) {
			actor.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
			if (actor.isAlive()) {
				violation(actor.getName(), 0, null,
						"liveness: the actor's operation neither got its lock nor timed out within 60 s of the end:\n"
								+ Arrays.stream(actor.getStackTrace())
									.limit(25)
									.map((frame) -> "\tat " + frame)
									.collect(Collectors.joining("\n")));
				actor.interrupt();
			}
		}
	}

	/** Invariants 6 and 7 of docs/failure-model.md, once everything has come to rest. */
	private void quiesce(ZooKeeperEnsemble ensemble, TcpRelay relay) throws Exception {
		relay.resume();
		ensemble.restart();
		for (Node node : this.nodes) {
			if (!within(Duration.ofSeconds(30), () -> node.client.getZookeeperClient().isConnected())) {
				violation(node.name, 0, null, "quiescence: did not reconnect after the faults");
			}
		}
		if (this.store.inside() != 0) {
			violation("checker", 0, null, "quiescence: " + this.store.inside() + " holds still inside the store");
		}
		CuratorFramework looker = this.nodes.get(this.nodes.size() - 1).client;
		if (this.settings.leadership()) {
			quiesceLeadership(looker);
		}
		Duration nodesGone = Faults.NODES.sessionTimeout().multipliedBy(3).plusSeconds(10);
		for (int p = 0; p < PATHS; p++) {
			for (String parent : List.of("/mutex/" + path(p), "/rw/" + path(p), "/semaphore/" + path(p) + "/leases",
					"/semaphore/" + path(p) + "/locks")) {
				if (!within(nodesGone, () -> children(looker, parent).isEmpty())) {
					violation("checker", 0, parent, "nodes left: lock nodes left after quiescence under " + parent
							+ ": " + described(looker, parent));
				}
			}
		}
		for (Node node : this.nodes) {
			String parent = "/mutex/" + HoldWatcher.path(node);
			if (node.locks != null && !within(nodesGone, () -> children(looker, parent).isEmpty())) {
				violation("checker", 0, parent, "nodes left: lock nodes left after quiescence under " + parent + ": "
						+ described(looker, parent));
			}
		}
		for (int server = 0; server < ensemble.size(); server++) {
			int port = ensemble.port(server);
			if (!within(Duration.ofSeconds(20), () -> watches(port).isEmpty())) {
				violation("checker", 0, null, "watches left: on server " + server + ": " + watches(port));
			}
		}
		for (LeaderMember member : this.members) {
			member.close();
			if (member instanceof LatchMember latch) {
				latch.shutdown();
			}
		}
		for (Node node : this.nodes) {
			if (node.locks != null) {
				CuratorLocks locks = node.locks;
				if (!within(Duration.ofSeconds(10), () -> locks.heldCount() == 0 && locks.waitingCount() == 0)) {
					violation(node.name, 0, null, "engine maps: the engine still counts " + locks.heldCount()
							+ " holds and " + locks.waitingCount() + " waiters after quiescence");
				}
				locks.close();
				closedRefuses(node);
			}
		}
	}

	/**
	 * Invariant 7 of docs/failure-model.md: a closed engine refuses new acquisitions at
	 * once.
	 */
	private void closedRefuses(Node node) {
		CompletableFuture<LockHandle> late = node.locks.mutex(path(0)).acquireAsync(Duration.ofSeconds(1));
		try {
			LockHandle handle = late.get(1000 + slack().toMillis(), TimeUnit.MILLISECONDS);
			handle.close();
			violation(node.name, 0, null, "close: an acquisition after close() was granted");
		}
		catch (ExecutionException ex) {
			if (!(ex.getCause() instanceof DistributedLockException)) {
				violation(node.name, 0, null, "close: an acquisition after close() failed with " + ex.getCause());
			}
		}
		catch (TimeoutException ex) {
			late.cancel(true);
			violation(node.name, 0, null, "close: an acquisition after close() did not end within its wait time + "
					+ slack().toMillis() + " ms");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** No engine thread outlives its engine. */
	private void threadsEnd(Set<Thread> before) {
		BooleanSupplier none = () -> engineThreads(before).isEmpty();
		if (!within(Duration.ofSeconds(10), none)) {
			violation("checker", 0, null, "threads left: engine threads left after close: " + engineThreads(before));
		}
	}

	private static List<String> engineThreads(Set<Thread> before) {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> !before.contains(thread) && thread.isAlive() && thread.getName().startsWith("distlock"))
			.map(Thread::getName)
			.sorted()
			.toList();
	}

	private static List<String> children(CuratorFramework client, String path) {
		try {
			return Faults.children(client, path);
		}
		catch (Exception ex) {
			return List.of("(unreadable: " + ex + ")");
		}
	}

	/** The children of a node with their data (who made them). */
	private static List<String> described(CuratorFramework client, String parent) {
		List<String> described = new ArrayList<>();
		for (String child : children(client, parent)) {
			try {
				byte[] data = client.getData().forPath(parent + "/" + child);
				described.add(child + " " + new String(data, java.nio.charset.StandardCharsets.UTF_8));
			}
			catch (Exception ex) {
				described.add(child + " (" + ex.getClass().getSimpleName() + ")");
			}
		}
		return described;
	}

	private static List<String> watches(int port) {
		try {
			return ServerWatches.watchedPaths(port, NAMESPACE);
		}
		catch (Exception ex) {
			return List.of("(unreadable: " + ex + ")");
		}
	}

	private static boolean within(Duration limit, BooleanSupplier condition) {
		long deadline = System.nanoTime() + limit.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				return false;
			}
			DistlockActor.park(50);
		}
		return true;
	}

	private String summary(HistoryAnalysis analysis, FaultInjector faults) {
		List<History.Event> events = this.history.events();
		Map<String, Long> grants = new TreeMap<>(events.stream()
			.filter((event) -> event.type() == History.Type.GRANTED && event.lock() != null)
			.collect(Collectors.groupingBy((event) -> event.lock().substring(0, event.lock().indexOf('/')),
					Collectors.counting())));
		Map<String, Long> ended = new TreeMap<>(events.stream()
			.filter((event) -> event.type() == History.Type.ENDED)
			.filter((event) -> event.lock() == null || !event.lock().startsWith(Leads.key("")))
			.collect(Collectors.groupingBy((event) -> {
				String text = event.text();
				int space = text.indexOf(' ');
				return (space > 0) ? text.substring(0, space) : text;
			}, Collectors.counting())));
		Map<String, Long> faultKinds = new TreeMap<>(faults.windows()
			.stream()
			.collect(Collectors.groupingBy((window) -> window.what().split(" ")[0], Collectors.counting())));
		return "seed " + this.settings.seed() + ", " + this.settings.duration().toSeconds() + " s, "
				+ this.settings.servers() + " server(s): " + this.ops.get() + " operations, " + this.holds.size()
				+ " holds (grants by subtree " + grants + "), acquisitions ended without a lock " + ended + ", faults "
				+ faultKinds + ", " + analysis.excusedOverlaps() + " overlaps and " + analysis.excusedRejections()
				+ " fenced rejections of holds provably in doubt, " + events.size() + " events";
	}

	/** The whole history, one line per event. */
	List<String> historyLines() {
		return this.history.events().stream().map(this.history::format).toList();
	}

	// For the actors and the fault injector

	History history() {
		return this.history;
	}

	FencedLocks store() {
		return this.store;
	}

	List<Node> nodes() {
		return this.nodes;
	}

	/** The fault injector, for actors that end a session at a chosen moment. */
	FaultInjector injector() {
		FaultInjector injector = this.injector;
		if (injector == null) {
			throw new IllegalStateException("No fault injector yet");
		}
		return injector;
	}

	boolean stopping() {
		return this.stopping;
	}

	boolean faultsOver() {
		return this.faultsOver;
	}

	/**
	 * Whether the steered phase at the run's start is on ({@link #steerDowngrades}, then
	 * the session given up under a hold of {@link HoldWatcher}): the fault injector waits
	 * until it is over, and the calm phase does not begin before.
	 */
	boolean steering() {
		return this.steering;
	}

	/**
	 * Whether the run is in its calm leadership phase (once, a quarter into a run with
	 * leadership that lasts at least twice {@link #CALM}): the leadership actors only
	 * join and work, and the fault injector ends the sessions of a waiting member and of
	 * a leading one on their clients, then no other session until the phase is over (nor
	 * does an actor end its own), so that {@link LatchPresence} judges those members
	 * quiet for longer than its window.
	 */
	boolean calm() {
		long now = System.nanoTime();
		return !this.steering && now >= this.calmFrom && now < this.calmTo;
	}

	/**
	 * Make the calm phase last at least until the given time: the fault injector ends its
	 * sessions once the fault before is over, and the presence rule needs its window
	 * after them.
	 */
	void calmUntil(long nanos) {
		this.calmTo = Math.max(this.calmTo, nanos);
	}

	/** When the calm phase begins ({@link Long#MAX_VALUE} if there is none). */
	long calmFrom() {
		return this.calmFrom;
	}

	/** The latch nodes another client deleted. */
	LatchDeletes latchDeletes() {
		return this.latchDeletes;
	}

	/** The leadership hand-offs that succeeded. */
	Transfers transfers() {
		return this.transfers;
	}

	/** The leadership members. */
	List<LeaderMember> members() {
		return this.members;
	}

	/** Whether the lock queues started at the ceiling of sequence numbers. */
	boolean queuesAtCeiling() {
		return this.queuesAtCeiling;
	}

	/**
	 * Count an operation and return its number for the actor: the operation of a given
	 * number of a given actor is the same in every run with the same seed.
	 */
	int nextOp(String actor) {
		this.ops.incrementAndGet();
		return this.opsByActor.computeIfAbsent(actor, (key) -> new AtomicInteger()).incrementAndGet();
	}

	/** How late an acquisition may end after its wait time: one session timeout. */
	Duration slack() {
		return Faults.NODES.sessionTimeout();
	}

	/** A node whose holder is in a long pause now, if any. */
	Optional<Node> pausingNode() {
		return this.pausing.entrySet()
			.stream()
			.filter((entry) -> entry.getValue().get() > 0)
			.map((entry) -> this.nodes.get(entry.getKey()))
			.findAny();
	}

	void pausing(int node, boolean on) {
		AtomicInteger count = this.pausing.computeIfAbsent(node, (key) -> new AtomicInteger());
		if (on) {
			count.incrementAndGet();
		}
		else {
			count.decrementAndGet();
		}
	}

	HoldRecord open(int op, String actor, int client, String key, LockKind kind, int pathIndex, long token, int family,
			@Nullable LockHandle handle) {
		Access access = switch (kind) {
			case READ -> Access.SHARED;
			case SEMAPHORE -> (permits(pathIndex) > 1) ? Access.PERMIT : Access.EXCLUSIVE;
			default -> Access.EXCLUSIVE;
		};
		HoldRecord hold = new HoldRecord(this.holdIds.incrementAndGet(), op, actor, client, key, access,
				permits(pathIndex), token, family, System.nanoTime(), handle);
		this.open.put(hold.id, hold);
		synchronized (this.holds) {
			this.holds.add(hold);
		}
		return hold;
	}

	/**
	 * A leader's write under its tenure: exclusive, fenced by the epoch, one family per
	 * member and epoch. Not counted among the holds.
	 */
	HoldRecord openLeaderWrite(int op, String actor, int client, String key, long epoch, int family) {
		this.leaderWrites.incrementAndGet();
		return new HoldRecord(this.holdIds.incrementAndGet(), op, actor, client, key, Access.EXCLUSIVE, 1, epoch,
				family, System.nanoTime(), null);
	}

	void released(HoldRecord hold, String how) {
		hold.releasedNanos = System.nanoTime();
		this.open.remove(hold.id);
		this.history.record(History.Type.RELEASED, hold.actor, hold.op, hold.lock, hold.token,
				"hold " + hold.id + " " + how);
	}

	private void lossReported(Node node, HeldLock held) {
		String key = key(held.kind(), held.path().toString());
		long now = System.nanoTime();
		for (HoldRecord hold : this.open.values()) {
			if (hold.client == node.index && hold.lock.equals(key) && hold.token == held.fencingToken()) {
				hold.lostNanos = Math.min(hold.lostNanos, now);
				hold.reportedNanos = Math.min(hold.reportedNanos, now);
			}
		}
		this.history.record(History.Type.LOSS_REPORTED, node.name, 0, key, held.fencingToken(),
				held.kind() + " " + held.state() + " (holder " + held.holder() + ")");
	}

	void violation(String actor, int op, @Nullable String lock, String text) {
		History.Event event = this.history.record(History.Type.VIOLATION, actor, op, lock, 0, text);
		String described = "op " + op + " (" + actor + "), event #" + event.seq() + ": " + text + "\n"
				+ this.history.excerpt(event.seq(), lock, 12);
		synchronized (this.violations) {
			this.violations.add(new Violation(event.nanos(), described));
		}
	}

	static String trace(Throwable ex) {
		StringWriter out = new StringWriter();
		ex.printStackTrace(new PrintWriter(out));
		String text = out.toString();
		return (text.length() > 3000) ? text.substring(0, 3000) + "..." : text;
	}

	/**
	 * What a run does.
	 *
	 * @param seed the seed of every random choice
	 * @param duration how long the actors run
	 * @param servers 1 for a single server, 3 for an ensemble
	 * @param distlockNodes number of distlock nodes (the last one behind the relay)
	 * @param actorsPerNode threads per distlock node
	 * @param curatorActors threads of the raw Curator client
	 * @param faults whether to inject faults
	 * @param leadership whether to run the leadership workload beside the locks
	 */
	record Settings(long seed, Duration duration, int servers, int distlockNodes, int actorsPerNode, int curatorActors,
			boolean faults, boolean leadership) {

		@Override
		public String toString() {
			return "seed " + this.seed + ", " + this.duration.toSeconds() + " s, " + this.servers + " server(s), "
					+ this.distlockNodes + " distlock nodes x " + this.actorsPerNode + " threads, " + this.curatorActors
					+ " raw Curator threads, faults " + (this.faults ? "on" : "off") + ", leadership "
					+ (this.leadership ? "on" : "off");
		}

	}

	/**
	 * What a run found.
	 *
	 * @param settings what it did
	 * @param violations each broken invariant, with the operation and an excerpt of the
	 * history, in the order they happened
	 * @param summary counts
	 * @param millis how long the run took, set-up and checks included
	 * @param runStart when the actors started
	 * @param holds number of holds
	 * @param faults number of faults injected
	 * @param tenures number of "I lead" intervals of the leadership workload
	 */
	record Result(Settings settings, List<Violation> violations, String summary, long millis, long runStart, int holds,
			int faults, int tenures) {

		/** Per kind of violation: how many, and how long into the run the first one. */
		Map<String, String> byCategory() {
			Map<String, String> categories = new TreeMap<>();
			Map<String, List<Violation>> grouped = this.violations.stream()
				.collect(Collectors.groupingBy(Violation::category));
			grouped.forEach((category, found) -> categories.put(category, found.size() + ", first after "
					+ TimeUnit.NANOSECONDS.toMillis(found.get(0).nanos() - this.runStart) + " ms"));
			return categories;
		}

		String report() {
			StringBuilder text = new StringBuilder();
			text.append("History checker, ")
				.append(this.settings)
				.append(" (rerun: -Ddistlock.history.seed=")
				.append(this.settings.seed())
				.append("), ")
				.append(this.millis)
				.append(" ms: ")
				.append(this.violations.size())
				.append(" violation(s) ")
				.append(byCategory())
				.append('\n')
				.append(this.summary)
				.append('\n');
			// The first of each kind, then the others in order.
			List<Violation> shown = new ArrayList<>();
			java.util.Set<String> seen = new java.util.HashSet<>();
			this.violations.stream().filter((violation) -> seen.add(violation.category())).forEach(shown::add);
			this.violations.stream().filter((violation) -> !shown.contains(violation)).forEach(shown::add);
			shown.stream()
				.limit(10)
				.forEach((violation) -> text.append("\nVIOLATION (seed ")
					.append(this.settings.seed())
					.append(") ")
					.append(violation.text()));
			return text.toString();
		}

	}

	/**
	 * A broken invariant.
	 *
	 * @param nanos when it happened (or was seen)
	 * @param text what, where, and the history around it
	 */
	record Violation(long nanos, String text) {

		/**
		 * The kind of invariant: the text's words before the first colon after the op.
		 */
		String category() {
			int start = this.text.indexOf(": ") + 2;
			int end = this.text.indexOf(':', start);
			return (end > start) ? this.text.substring(start, end) : this.text;
		}

	}

}
