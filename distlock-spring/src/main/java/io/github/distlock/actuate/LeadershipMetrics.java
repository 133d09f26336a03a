package io.github.distlock.actuate;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.distlock.core.LeaderChangedEvent;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipHandOffEvent;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.core.LockAcquisitionException;

/**
 * Micrometer meters of leader election, per group: {@code distlock.leader} (a gauge, 1
 * while this instance leads the group, else 0), {@code distlock.leadership.transitions}
 * (a counter of tenures granted and revoked, tag {@code transition}),
 * {@code distlock.leadership.leaderless} (a gauge of the seconds the group has been
 * without a leader, as this instance sees it, 0 while it has one),
 * {@code distlock.leadership.failover} (a timer from the leader seen gone until a new
 * leader is seen) and {@code distlock.leadership.handoff} (a timer of this instance's
 * hand-offs, tag {@code outcome}). The last three follow the groups this instance joined
 * when the meters were bound, which it observes for them, and the groups it observes.
 * Group names are constants of the application's code or configuration, so their number
 * is bounded.
 */
public class LeadershipMetrics implements LeadershipListener {

	private static final Logger logger = LoggerFactory.getLogger(LeadershipMetrics.class);

	private static final String GROUP = "group";

	private final MeterRegistry registry;

	private final Leadership leadership;

	private final Set<String> gauged = ConcurrentHashMap.newKeySet();

	private final Set<String> followed = ConcurrentHashMap.newKeySet();

	// Since when (System.nanoTime) each group followed has been seen without a leader.
	private final Map<String, Long> leaderlessSince = new ConcurrentHashMap<>();

	// The groups whose leader was seen gone, not replaced yet: since when.
	private final Map<String, Long> goneSince = new ConcurrentHashMap<>();

	/**
	 * Create the meters and follow the given leader election.
	 * @param registry where the meters go
	 * @param leadership the leader election
	 */
	public LeadershipMetrics(MeterRegistry registry, Leadership leadership) {
		this.registry = registry;
		this.leadership = leadership;
	}

	/**
	 * Register the gauges of every group joined or observed now, and observe the groups
	 * joined, to see their leader change (called once it has started; a blocking read per
	 * group joined).
	 */
	public void bindGroups() {
		Set<String> groups = new TreeSet<>(this.leadership.groups());
		groups.forEach(this::gauge);
		for (String group : groups) {
			if (!this.leadership.observedGroups().contains(group)) {
				try {
					this.leadership.observe(group);
				}
				catch (LockAcquisitionException ex) {
					// Observed all the same: watched again when the connection returns.
					logger.warn("Could not read the leader of group '{}': {}", group, ex.toString());
				}
			}
		}
		groups.addAll(this.leadership.observedGroups());
		groups.forEach(this::follow);
	}

	private void gauge(String group) {
		if (this.gauged.add(group)) {
			Gauge.builder("distlock.leader", this.leadership, (leadership) -> leadership.isLeader(group) ? 1 : 0)
				.tag(GROUP, group)
				.description("Whether this instance leads the group: 1 while it leads, else 0")
				.register(this.registry);
		}
	}

	private void follow(String group) {
		if (!this.followed.add(group)) {
			return;
		}
		if (this.leadership.observed(group).isEmpty()) {
			this.leaderlessSince.putIfAbsent(group, System.nanoTime());
		}
		Gauge.builder("distlock.leadership.leaderless", this, (metrics) -> metrics.leaderlessSeconds(group))
			.tag(GROUP, group)
			.baseUnit("seconds")
			.description("Seconds the group has been without a leader, as this instance sees it; 0 while it has one")
			.register(this.registry);
	}

	private double leaderlessSeconds(String group) {
		Long since = this.leaderlessSince.get(group);
		return (since != null) ? (System.nanoTime() - since) / 1e9 : 0;
	}

	@Override
	public void granted(LeadershipGrantedEvent event) {
		gauge(event.group());
		transition(event.group(), "granted");
	}

	@Override
	public void revoked(LeadershipRevokedEvent event) {
		gauge(event.group());
		transition(event.group(), "revoked");
	}

	@Override
	public void leaderChanged(LeaderChangedEvent event) {
		String group = event.group();
		follow(group);
		long now = System.nanoTime();
		if (event.leader() == null) {
			this.leaderlessSince.putIfAbsent(group, now);
			if (event.previous() != null) {
				this.goneSince.putIfAbsent(group, now);
			}
			return;
		}
		this.leaderlessSince.remove(group);
		Long gone = this.goneSince.remove(group);
		if (event.previous() != null || gone != null) {
			// Replaced at once (within one read): no time without a leader was seen.
			Duration failover = Duration.ofNanos((gone != null) ? now - gone : 0);
			Timer.builder("distlock.leadership.failover")
				.tag(GROUP, group)
				.description("From the group's leader seen gone until a new leader is seen")
				.register(this.registry)
				.record(failover);
		}
	}

	@Override
	public void handedOff(LeadershipHandOffEvent event) {
		Timer.builder("distlock.leadership.handoff")
			.tag(GROUP, event.group())
			.tag("outcome", event.succeeded() ? "done" : "failed")
			.description("Hand-offs of this instance's tenure, from their start until the target is first")
			.register(this.registry)
			.record(event.duration());
	}

	private void transition(String group, String transition) {
		Counter.builder("distlock.leadership.transitions")
			.tag(GROUP, group)
			.tag("transition", transition)
			.description("Tenures of this instance granted and revoked, per group")
			.register(this.registry)
			.increment();
	}

}
