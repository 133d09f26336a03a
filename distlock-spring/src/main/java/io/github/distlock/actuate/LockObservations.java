package io.github.distlock.actuate;

import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * One {@link Observation} named {@value #NAME} per lock acquisition, for tracing: started
 * when the acquisition starts and stopped when the lock is released, or when the
 * acquisition times out or fails. Low-cardinality key values: {@code kind}, {@code name}
 * (the path {@linkplain LockPath#template() template}), {@code outcome}
 * ({@code acquired}, {@code timed_out}, {@code cancelled}, {@code failed}) and
 * {@code lost} ({@code true} if an acquired lock was lost while held, else
 * {@code false}); high-cardinality key values: {@code path} (the resolved path) and
 * {@code fencing.token}. Events: {@code acquired} and {@code lost}.
 * <p>
 * No scope is opened: a hold may end on another thread than the one that started it.
 */
public final class LockObservations implements LockEventListener {

	/** Name of the observation. */
	public static final String NAME = "distlock.lock";

	private static final String LOST = "lost";

	private static final Observation.Event ACQUIRED_EVENT = Observation.Event.of("acquired",
			"distributed lock acquired");

	private static final Observation.Event LOST_EVENT = Observation.Event.of("lost", "distributed lock lost");

	private final ObservationRegistry registry;

	/**
	 * Create the observations.
	 * @param registry where to record them
	 */
	public LockObservations(ObservationRegistry registry) {
		this.registry = registry;
	}

	@Override
	public AcquisitionListener acquiring(LockKind kind, LockPath path) {
		if (this.registry.isNoop()) {
			return AcquisitionListener.NONE;
		}
		String name = path.template();
		Observation observation = Observation.createNotStarted(NAME, this.registry)
			.contextualName("lock " + name)
			.lowCardinalityKeyValue(LockTags.KIND, LockTags.kind(kind))
			.lowCardinalityKeyValue(LockTags.NAME, name)
			.highCardinalityKeyValue("path", path.value());
		if (observation.isNoop()) {
			return AcquisitionListener.NONE;
		}
		return new ObservedAcquisition(observation.start());
	}

	private static final class ObservedAcquisition implements AcquisitionListener {

		private final Observation observation;

		private volatile boolean lost;

		ObservedAcquisition(Observation observation) {
			this.observation = observation;
		}

		@Override
		public void acquired(long fencingToken) {
			this.observation.lowCardinalityKeyValue(LockTags.OUTCOME, LockTags.ACQUIRED)
				.highCardinalityKeyValue("fencing.token", Long.toString(fencingToken))
				.event(ACQUIRED_EVENT);
		}

		// Every stopped observation carries the same keys: a meter registry such as
		// Prometheus's refuses a second timer of one name with other tag keys.
		@Override
		public void timedOut() {
			this.observation.lowCardinalityKeyValue(LockTags.OUTCOME, LockTags.TIMED_OUT)
				.lowCardinalityKeyValue(LOST, "false")
				.stop();
		}

		@Override
		public void cancelled() {
			this.observation.lowCardinalityKeyValue(LockTags.OUTCOME, LockTags.CANCELLED)
				.lowCardinalityKeyValue(LOST, "false")
				.stop();
		}

		@Override
		public void failed(Throwable error) {
			this.observation.lowCardinalityKeyValue(LockTags.OUTCOME, LockTags.FAILED)
				.lowCardinalityKeyValue(LOST, "false")
				.error(error)
				.stop();
		}

		@Override
		public void lost() {
			this.lost = true;
			this.observation.event(LOST_EVENT);
		}

		@Override
		public void released() {
			this.observation.lowCardinalityKeyValue(KeyValue.of(LOST, Boolean.toString(this.lost))).stop();
		}

	}

}
