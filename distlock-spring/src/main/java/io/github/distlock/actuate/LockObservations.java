package io.github.distlock.actuate;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockEventListener;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockPath;

/**
 * The one source of distlock's lock metrics and spans: per acquisition, one
 * {@link DistlockObservationDocumentation#LOCK_ACQUIRE} observation from its start until
 * it ends, and for an acquired lock one
 * {@link DistlockObservationDocumentation#LOCK_HOLD} observation from the acquisition
 * until the release, with a {@code lost} event if the lock is lost while held. Boot's
 * default meter handler derives the timers, long-task timers and the loss counter from
 * them; no meter is written by hand.
 * <p>
 * No scope is opened: a hold may end on another thread than the one that started it.
 */
public final class LockObservations implements LockEventListener {

	private final ObservationRegistry registry;

	private final @Nullable LockObservationConvention convention;

	/**
	 * Create the observations with the default convention.
	 * @param registry where to record them
	 */
	public LockObservations(ObservationRegistry registry) {
		this(registry, null);
	}

	/**
	 * Create the observations.
	 * @param registry where to record them
	 * @param convention the convention replacing the default one, or {@code null}
	 */
	public LockObservations(ObservationRegistry registry, @Nullable LockObservationConvention convention) {
		this.registry = registry;
		this.convention = convention;
	}

	@Override
	public AcquisitionListener acquiring(LockKind kind, LockPath path) {
		if (this.registry.isNoop()) {
			return AcquisitionListener.NONE;
		}
		LockObservationContext context = new LockObservationContext(DistlockObservationDocumentation.LOCK_ACQUIRE, kind,
				path);
		Observation acquisition = observe(context);
		if (acquisition.isNoop()) {
			return AcquisitionListener.NONE;
		}
		return new ObservedAcquisition(acquisition.start(), context);
	}

	private Observation observe(LockObservationContext context) {
		return context.phase()
			.observation(this.convention, DefaultLockObservationConvention.INSTANCE, () -> context, this.registry);
	}

	private final class ObservedAcquisition implements AcquisitionListener {

		private final Observation acquisition;

		private final LockObservationContext context;

		private volatile @Nullable Observation hold;

		ObservedAcquisition(Observation acquisition, LockObservationContext context) {
			this.acquisition = acquisition;
			this.context = context;
		}

		@Override
		public void acquired(long fencingToken) {
			end(LockTags.ACQUIRED);
			LockObservationContext held = new LockObservationContext(DistlockObservationDocumentation.LOCK_HOLD,
					this.context.kind(), this.context.path());
			held.setFencingToken(fencingToken);
			this.hold = observe(held).start();
		}

		@Override
		public void timedOut() {
			end(LockTags.TIMED_OUT);
		}

		@Override
		public void cancelled() {
			end(LockTags.CANCELLED);
		}

		@Override
		public void failed(Throwable error) {
			this.acquisition.error(error);
			end(LockTags.FAILED);
		}

		private void end(String outcome) {
			this.context.setOutcome(outcome);
			this.acquisition.stop();
		}

		@Override
		public void lost() {
			Observation hold = this.hold;
			if (hold != null) {
				((LockObservationContext) hold.getContext()).setLost();
				hold.event(DistlockObservationDocumentation.Events.LOST);
			}
		}

		@Override
		public void released() {
			Observation hold = this.hold;
			if (hold != null) {
				((LockObservationContext) hold.getContext()).setReleased();
				hold.stop();
			}
		}

	}

}
