package io.github.distlock.actuate;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * distlock's observations. With Spring Boot's default meter handler each gives a timer of
 * its name (tags: its low-cardinality keys and {@code error}), a long-task timer
 * {@code <name>.active} of those in progress now (tags {@code kind}, {@code name}) and a
 * counter {@code <name>.<event>} per event.
 */
public enum DistlockObservationDocumentation implements ObservationDocumentation {

	/**
	 * One acquisition of a lock, from its start until it is acquired, times out, is
	 * cancelled or fails: {@code distlock.lock.acquire} timer by {@code outcome}, and
	 * {@code distlock.lock.acquire.active}, the acquisitions waiting now.
	 */
	LOCK_ACQUIRE {
		@Override
		public String getName() {
			return "distlock.lock.acquire";
		}

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultLockObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return new KeyName[] { LowCardinalityKeyNames.KIND, LowCardinalityKeyNames.NAME,
					LowCardinalityKeyNames.OUTCOME };
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return new KeyName[] { HighCardinalityKeyNames.PATH };
		}
	},

	/**
	 * One hold of an acquired lock, until its release: {@code distlock.lock.hold} timer
	 * by {@code lost}, {@code distlock.lock.hold.active}, the locks held now, and the
	 * {@code lost} event, counted as {@code distlock.lock.hold.lost}.
	 */
	LOCK_HOLD {
		@Override
		public String getName() {
			return "distlock.lock.hold";
		}

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultLockObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return new KeyName[] { LowCardinalityKeyNames.KIND, LowCardinalityKeyNames.NAME,
					LowCardinalityKeyNames.LOST };
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return new KeyName[] { HighCardinalityKeyNames.PATH, HighCardinalityKeyNames.FENCING_TOKEN };
		}

		@Override
		public Observation.Event[] getEvents() {
			return new Observation.Event[] { Events.LOST };
		}
	};

	/** Low-cardinality keys: tags of the derived meters. */
	public enum LowCardinalityKeyNames implements KeyName {

		/**
		 * Kind of lock: {@code mutex}, {@code read}, {@code write}, {@code semaphore},
		 * {@code leader}.
		 */
		KIND {
			@Override
			public String asString() {
				return "kind";
			}
		},

		/** The path template, such as {@code orders/{}}; never the resolved path. */
		NAME {
			@Override
			public String asString() {
				return "name";
			}
		},

		/**
		 * How an acquisition ended: {@code acquired}, {@code timed_out},
		 * {@code cancelled}, {@code failed}.
		 */
		OUTCOME {
			@Override
			public String asString() {
				return "outcome";
			}
		},

		/**
		 * Whether a held lock was lost before its release: {@code true} or {@code false}.
		 */
		LOST {
			@Override
			public String asString() {
				return "lost";
			}
		}

	}

	/** High-cardinality keys: for traces, never tags. */
	public enum HighCardinalityKeyNames implements KeyName {

		/** The resolved path. */
		PATH {
			@Override
			public String asString() {
				return "path";
			}
		},

		/** The hold's fencing token. */
		FENCING_TOKEN {
			@Override
			public String asString() {
				return "fencing.token";
			}
		}

	}

	/** Events of a hold. */
	public enum Events implements Observation.Event {

		/**
		 * The held lock was lost (session expired, or connection suspended under the
		 * default policy).
		 */
		LOST {
			@Override
			public String getName() {
				return "lost";
			}

			@Override
			public String getContextualName() {
				return "distributed lock lost";
			}
		}

	}

}
