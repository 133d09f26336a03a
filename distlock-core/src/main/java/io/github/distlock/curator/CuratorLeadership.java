package io.github.distlock.curator;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.ConnectionLossPolicy;
import io.github.distlock.core.LeaderChangedEvent;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipGroup;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockParticipant;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LocksDrainingException;
import io.github.distlock.core.ObservedLeader;
import io.github.distlock.core.Partitions;

/**
 * {@link Leadership} on the engine of one {@link CuratorLocks}: the same client, threads
 * and session, one {@link Participant} per group joined. Curator's {@code LeaderLatch},
 * node for node, so raw {@code LeaderLatch}es on {@code /<namespace>/leader/<group>} take
 * part in the same elections. No thread is kept per group, and no connection-state
 * listener of its own: the engine's {@link SessionWatch} tells every participant what the
 * connection does, after the holds and acquisitions of the same session, and listeners
 * are told on distlock's event thread, in order. While the locks {@linkplain Drain
 * drain}, this instance stands aside: out of every election it is a member of, it joins
 * them again when the drain ends. Its partitioned groups are {@link PartitionGroups}'.
 */
public final class CuratorLeadership implements Leadership, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(CuratorLeadership.class);

	private final CuratorLocks locks;

	private final Engine engine;

	private final ConcurrentMap<String, Participant> participants = new ConcurrentHashMap<>();

	private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();

	private final Observations observations;

	private final Transfers transfers;

	private final PartitionGroups partitionGroups;

	private final PreferredLeaders preferred;

	// Guards closed with the joins that check it: a join that passed the check is done
	// before close leaves every group, so close leaves its group too.
	private final Object lifecycle = new Object();

	private volatile boolean closed;

	// The groups stood aside from while the locks drain.
	private final StandAside standAside = new StandAside(this.lifecycle, () -> this.closed, this.participants,
			this::participant);

	/**
	 * How long a leaving leader waits at most for the calls under its tenure before it
	 * deletes its node.
	 */
	static final Duration DRAIN = Duration.ofSeconds(10);

	private final Duration drain;

	private final String memberId;

	// What a participant's tenure tells, and the policy it follows.
	private final Tenure.Election election = new Tenure.Election() {

		@Override
		public ConnectionLossPolicy policy() {
			return CuratorLeadership.this.policy();
		}

		@Override
		public Duration drain() {
			return CuratorLeadership.this.drain;
		}

		@Override
		public String memberId() {
			return CuratorLeadership.this.memberId;
		}

		@Override
		public void granted(String group, long epoch) {
			CuratorLeadership.this.granted(group, epoch);
		}

		@Override
		public void revoked(String group, long epoch) {
			CuratorLeadership.this.revoked(group, epoch);
		}

	};

	/**
	 * Create the leader election of the given locks' client.
	 * @param locks the locks, whose client, threads, session and connection-loss policy
	 * the election shares; close this before them
	 */
	public CuratorLeadership(CuratorLocks locks) {
		this(locks, locks.engine().identity().memberId());
	}

	/**
	 * Create the leader election of the given locks' client, with the given member id.
	 * @param locks the locks, whose client, threads, session and connection-loss policy
	 * the election shares; close this before them
	 * @param memberId this instance's id in its groups, written as its latch nodes' data:
	 * unique among the members of a group
	 */
	public CuratorLeadership(CuratorLocks locks, String memberId) {
		this(locks, DRAIN, memberId);
	}

	/**
	 * The election of the locks' client, whose leaving leaders wait this long for calls.
	 */
	CuratorLeadership(CuratorLocks locks, Duration drain) {
		this(locks, drain, locks.engine().identity().memberId());
	}

	CuratorLeadership(CuratorLocks locks, Duration drain, String memberId) {
		if (memberId == null || memberId.isBlank()) {
			throw new IllegalArgumentException(
					"CuratorLeadership: the member id must not be blank, was '" + memberId + "'");
		}
		this.locks = locks;
		this.engine = locks.engine();
		this.drain = drain;
		this.engine.drain().addListener(this.standAside);
		this.memberId = memberId;
		this.observations = new Observations(this.engine, this::leaderChanged);
		this.transfers = new Transfers(this.engine, memberId, this.listeners);
		this.partitionGroups = new PartitionGroups(this.engine, memberId, drain);
		this.preferred = new PreferredLeaders(this.engine, this, this.listeners);
	}

	/**
	 * Whether this instance is a preferred leader, and how long its leaders wait for one.
	 */
	public PreferredLeaders preferred() {
		return this.preferred;
	}

	/**
	 * The member id an application's instance takes by default.
	 * @param applicationName the application's name
	 * @return {@code applicationName@host:pid}, the host and process of this JVM
	 */
	public static String defaultMemberId(String applicationName) {
		return HolderIdentity.memberId(applicationName);
	}

	@Override
	public String memberId() {
		return this.memberId;
	}

	ConnectionLossPolicy policy() {
		return this.locks.connectionLossPolicy();
	}

	private Participant participant(String group) {
		LockPath path = LockPath.parse(group);
		return this.participants.computeIfAbsent(path.value(), (name) -> {
			Participant participant = new Participant(this.election, this.engine, path);
			this.engine.session().bind(participant);
			return participant;
		});
	}

	private Optional<Participant> existing(String group) {
		return Optional.ofNullable(this.participants.get(group));
	}

	@Override
	public void join(String group) {
		synchronized (this.lifecycle) {
			if (this.closed) {
				throw new LockAcquisitionException(
						"Cannot join group '" + group + "': the leader election of this client was closed", null);
			}
			String name = LockPath.parse(group).value();
			if (this.engine.drain().since() != null) {
				// Joined when the drain ends (a marker alone is no live member).
				this.standAside.groups().add(name);
			}
			else {
				participant(group).join();
			}
			this.preferred.joined(name);
		}
	}

	@Override
	public Partitions partitions(String group, int count) {
		return this.partitionGroups.join(group, count);
	}

	@Override
	public CompletableFuture<Void> leave(String group) {
		synchronized (this.lifecycle) {
			this.standAside.groups().remove(group);
		}
		return existing(group).map(Participant::leave).orElseGet(() -> CompletableFuture.completedFuture(null));
	}

	@Override
	public void relinquish(String group) {
		existing(group).ifPresent(Participant::relinquish);
	}

	@Override
	public CompletableFuture<Long> transferTo(String group, String memberId) {
		String name = LockPath.parse(group).value();
		return this.transfers.transfer(name, this.participants.get(name), this.memberId, memberId, this::inspect);
	}

	@Override
	public Optional<ObservedLeader> observe(String group) {
		LockPath path = LockPath.parse(group);
		Observation added;
		synchronized (this.lifecycle) {
			if (this.closed) {
				throw new LockAcquisitionException(
						"Cannot observe group '" + group + "': the leader election of this client was closed", null);
			}
			added = this.observations.add(path);
		}
		return (added != null) ? added.start() : this.observations.last(path.value());
	}

	@Override
	public Set<String> observedGroups() {
		return this.observations.groups();
	}

	@Override
	public Optional<ObservedLeader> observed(String group) {
		return this.observations.last(group);
	}

	private void leaderChanged(LeaderChangedEvent event) {
		tell((listener) -> listener.leaderChanged(event));
	}

	/** Tell every listener, on the event thread, in order. */
	private void tell(Consumer<LeadershipListener> told) {
		this.engine.threads().reportLoss(() -> {
			for (LeadershipListener listener : this.listeners) {
				try {
					told.accept(listener);
				}
				catch (RuntimeException ex) {
					logger.warn("Leadership listener failed", ex);
				}
			}
		});
	}

	@Override
	public Set<String> groups() {
		Set<String> groups;
		synchronized (this.lifecycle) {
			groups = new TreeSet<>(this.standAside.groups());
		}
		this.participants.forEach((group, participant) -> {
			if (participant.isJoined()) {
				groups.add(group);
			}
		});
		return groups;
	}

	@Override
	public boolean isLeader(String group) {
		return existing(group).map(Participant::isLeader).orElse(false);
	}

	@Override
	public OptionalLong epoch(String group) {
		long epoch = existing(group).map(Participant::epoch).orElse(0L);
		return (epoch != 0) ? OptionalLong.of(epoch) : OptionalLong.empty();
	}

	@Override
	public Optional<LockHandle> tenure(String group) {
		return existing(group).map(Participant::tenure);
	}

	@Override
	public CompletableFuture<Long> awaitLeadership(String group) {
		synchronized (this.lifecycle) {
			if (this.closed) {
				return CompletableFuture.failedFuture(new LockAcquisitionException(
						"Cannot wait to lead group '" + group + "': the leader election of this client was closed",
						null));
			}
			Instant draining = this.engine.drain().since();
			if (draining != null) {
				return CompletableFuture.failedFuture(new LocksDrainingException(
						"Cannot wait to lead group '" + group + "': this instance is draining (since " + draining
								+ "); it runs for leadership again after undrain()"));
			}
			return participant(group).awaitLeadership();
		}
	}

	@Override
	public void addListener(LeadershipListener listener) {
		this.listeners.add(listener);
	}

	@Override
	public Optional<String> leader(String group) {
		List<LockParticipant> participants = inspect(group).participants();
		return participants.isEmpty() ? Optional.empty() : Optional.of(participants.get(0).memberId());
	}

	@Override
	public LeadershipGroup inspect(String group) {
		LockPath path = LockPath.parse(group);
		String queuePath = QueuePaths.of(io.github.distlock.core.LockKind.LEADER, path);
		Participant participant = this.participants.get(path.value());
		boolean leading = participant != null && participant.isLeader();
		return new LeadershipGroup(path.value(), this.memberId, queuePath,
				participant != null && participant.isJoined(), leading, leading ? participant.epoch() : 0,
				LatchReads.read(this.engine, queuePath));
	}

	@Override
	public Optional<Exception> lastError(String group) {
		return existing(group).filter(Participant::isJoined).map(Participant::lastFailure);
	}

	/** Number of groups joined whose participant failed last time it tried. */
	public int failingGroups() {
		int failing = 0;
		for (Participant participant : this.participants.values()) {
			if (participant.isJoined() && participant.lastFailure() != null) {
				failing++;
			}
		}
		return failing;
	}

	void granted(String group, long epoch) {
		LeadershipGrantedEvent event = new LeadershipGrantedEvent(group, epoch, this.memberId);
		tell((listener) -> listener.granted(event));
	}

	void revoked(String group, long epoch) {
		LeadershipRevokedEvent event = new LeadershipRevokedEvent(group, epoch, this.memberId);
		tell((listener) -> listener.revoked(event));
	}

	/**
	 * Leave every group, partitioned groups first (their nodes deleted, so that other
	 * members lead and own at once), and stop following the connection. Waits for the
	 * calls running under a tenure or a partition (at most 10 s) and for the deletes, at
	 * most 15 s for the partitioned groups and 15 s for the elections.
	 */
	@Override
	public void close() {
		this.partitionGroups.close();
		List<Participant> leaving;
		synchronized (this.lifecycle) {
			this.closed = true;
			this.standAside.groups().clear();
			leaving = new ArrayList<>(this.participants.values());
		}
		this.engine.drain().removeListener(this.standAside);
		List<CompletableFuture<Void>> deletes = new ArrayList<>();
		for (Participant participant : leaving) {
			deletes.add(participant.leave());
		}
		try {
			CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new))
				.get(15, java.util.concurrent.TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			logger.debug("Latch nodes not confirmed deleted on close: {}", ex.toString());
		}
		for (Participant participant : leaving) {
			this.engine.session().unbind(participant);
		}
		this.observations.close();
		this.preferred.close();
	}

}
