package io.github.distlock.curator;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LeaderChangedEvent;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.ObservedLeader;

/**
 * The groups one {@link CuratorLeadership} observes, one {@link Observation} each, bound
 * to the engine's session until the leadership closes.
 */
final class Observations {

	private final Engine engine;

	private final Consumer<LeaderChangedEvent> changes;

	private final ConcurrentMap<String, Observation> byGroup = new ConcurrentHashMap<>();

	Observations(Engine engine, Consumer<LeaderChangedEvent> changes) {
		this.engine = engine;
		this.changes = changes;
	}

	/**
	 * Observe a group, if it is not yet.
	 * @return the new observation, bound to the session, to start; null if the group was
	 * observed already
	 */
	synchronized @Nullable Observation add(LockPath path) {
		if (this.byGroup.containsKey(path.value())) {
			return null;
		}
		Observation observation = new Observation(this.engine, path.value(), QueuePaths.of(LockKind.LEADER, path),
				this.changes);
		this.byGroup.put(path.value(), observation);
		this.engine.session().bind(observation);
		return observation;
	}

	/** The groups observed. */
	Set<String> groups() {
		return new TreeSet<>(this.byGroup.keySet());
	}

	/** The leader of an observed group as last seen; empty if none or not observed. */
	Optional<ObservedLeader> last(String group) {
		Observation observation = this.byGroup.get(group);
		return (observation != null) ? observation.last() : Optional.empty();
	}

	/** Stop following the connection. */
	synchronized void close() {
		for (Observation observation : this.byGroup.values()) {
			this.engine.session().unbind(observation);
		}
	}

}
