package io.github.distlock.autoconfigure.leadership;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;

import io.github.distlock.core.Leadership;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.Partitions;

/**
 * This instance's membership in its groups' elections: every group a {@code @LeaderOnly}
 * method names, and {@code distlock.leadership.groups}; and in the partitioned groups
 * that {@code @PartitionOwner} methods name, with their counts, which the same steps join
 * and leave (a {@code @PartitionOwner} call runs only while its group is joined). Joined
 * once the context has started (the last phase to start), left when it closes in the
 * first phase to stop, so before the beans that do the work stop: the latch nodes are
 * deleted, and another instance leads at once instead of after a session timeout. After a
 * session loss the election itself joins again. Unless
 * {@code distlock.leadership.require-readiness=false}, every group is left when the
 * application's readiness state turns to refusing traffic (a leader drains its calls, and
 * the next member leads at once), and joined again once it accepts traffic; closing waits
 * for those leaves too. The groups of {@code distlock.leadership.observe} are observed
 * from the start on, without taking part.
 */
final class LeadershipMembership implements SmartLifecycle, ApplicationListener<AvailabilityChangeEvent<?>> {

	private static final Logger logger = LoggerFactory.getLogger(LeadershipMembership.class);

	/**
	 * How long closing waits for the calls running under a tenure (at most 10 s) and for
	 * ZooKeeper to confirm the latch nodes' deletes.
	 */
	private static final long LEAVE_TIMEOUT_SECONDS = 15;

	private final Leadership leadership;

	private final Supplier<Set<String>> annotatedGroups;

	private final List<String> configuredGroups;

	private final Supplier<Map<String, Integer>> partitionedGroups;

	// The partitioned groups joined now.
	private final Map<String, Partitions> partitions = new ConcurrentHashMap<>();

	private final List<String> observedGroups;

	private final boolean requireReadiness;

	private volatile boolean running;

	private volatile boolean refusingTraffic;

	// The leaves readiness started, which closing waits for as for its own.
	private final List<CompletableFuture<Void>> pendingLeaves = new CopyOnWriteArrayList<>();

	LeadershipMembership(Leadership leadership, Supplier<Set<String>> annotatedGroups, List<String> configuredGroups,
			List<String> observedGroups, boolean requireReadiness, Supplier<Map<String, Integer>> partitionedGroups) {
		this.leadership = leadership;
		this.annotatedGroups = annotatedGroups;
		this.configuredGroups = List.copyOf(configuredGroups);
		this.partitionedGroups = partitionedGroups;
		this.observedGroups = List.copyOf(observedGroups);
		this.requireReadiness = requireReadiness;
	}

	/** The groups this instance joins. */
	Set<String> groups() {
		Set<String> groups = new TreeSet<>(this.configuredGroups);
		groups.addAll(this.annotatedGroups.get());
		return groups;
	}

	/**
	 * This instance's membership of a partitioned group, while it is joined.
	 * @param group the group
	 * @return the membership, or empty before the start, after the stop, or while
	 * readiness refuses traffic
	 */
	Optional<Partitions> partitions(String group) {
		return Optional.ofNullable(this.partitions.get(group));
	}

	@Override
	public void start() {
		this.running = true;
		for (String group : this.observedGroups) {
			try {
				this.leadership.observe(group);
			}
			catch (LockAcquisitionException ex) {
				// Observed all the same: the watch is set once the connection is back.
				logger.warn("Could not read the leader of observed group '{}': {}", group, ex.toString());
			}
		}
		if (!this.refusingTraffic) {
			joinAll();
		}
	}

	@Override
	public void stop() {
		this.running = false;
		leaveAll(true);
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		// Started last, stopped first.
		return SmartLifecycle.DEFAULT_PHASE;
	}

	@Override
	public void onApplicationEvent(AvailabilityChangeEvent<?> event) {
		if (!this.requireReadiness || !(event.getState() instanceof ReadinessState readiness)) {
			return;
		}
		this.refusingTraffic = readiness == ReadinessState.REFUSING_TRAFFIC;
		if (this.refusingTraffic) {
			logger.info("Readiness refuses traffic: leaving the leader elections of {}", groups());
			leaveAll(false);
		}
		else if (this.running) {
			joinAll();
		}
	}

	private void joinAll() {
		for (String group : groups()) {
			this.leadership.join(group);
		}
		this.partitionedGroups.get()
			.forEach((group, count) -> this.partitions.put(group, this.leadership.partitions(group, count)));
	}

	private void leaveAll(boolean await) {
		List<CompletableFuture<Void>> leaving = new ArrayList<>();
		for (String group : this.leadership.groups()) {
			leaving.add(this.leadership.leave(group));
		}
		for (String group : List.copyOf(this.partitions.keySet())) {
			Partitions left = this.partitions.remove(group);
			if (left != null) {
				leaving.add(left.leave());
			}
		}
		if (!await) {
			this.pendingLeaves.removeIf(CompletableFuture::isDone);
			this.pendingLeaves.addAll(leaving);
			return;
		}
		leaving.addAll(this.pendingLeaves);
		this.pendingLeaves.clear();
		if (leaving.isEmpty()) {
			return;
		}
		try {
			CompletableFuture.allOf(leaving.toArray(CompletableFuture[]::new))
				.get(LEAVE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Exception ex) {
			logger.warn("Leaving the leader elections was not confirmed in {} s: {}; the latch nodes go with "
					+ "the session", LEAVE_TIMEOUT_SECONDS, ex.toString());
		}
	}

}
