package io.github.distlock.actuate;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import io.github.distlock.core.Leadership;
import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipListener;
import io.github.distlock.core.LeadershipRevokedEvent;

/**
 * Micrometer meters of leader election, per group: {@code distlock.leader} (a gauge, 1
 * while this instance leads the group, else 0) and
 * {@code distlock.leadership.transitions} (a counter of tenures granted and revoked, tag
 * {@code transition}). Group names are constants of the application's code or
 * configuration, so their number is bounded.
 */
public class LeadershipMetrics implements LeadershipListener {

	private static final String GROUP = "group";

	private final MeterRegistry registry;

	private final Leadership leadership;

	private final Set<String> gauged = ConcurrentHashMap.newKeySet();

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
	 * Register the leader gauge of every group joined now (called once it has started).
	 */
	public void bindGroups() {
		this.leadership.groups().forEach(this::gauge);
	}

	private void gauge(String group) {
		if (this.gauged.add(group)) {
			Gauge.builder("distlock.leader", this.leadership, (leadership) -> leadership.isLeader(group) ? 1 : 0)
				.tag(GROUP, group)
				.description("Whether this instance leads the group: 1 while it leads, else 0")
				.register(this.registry);
		}
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

	private void transition(String group, String transition) {
		Counter.builder("distlock.leadership.transitions")
			.tag(GROUP, group)
			.tag("transition", transition)
			.description("Tenures of this instance granted and revoked, per group")
			.register(this.registry)
			.increment();
	}

}
