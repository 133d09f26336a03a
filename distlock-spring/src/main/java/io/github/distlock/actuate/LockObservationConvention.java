package io.github.distlock.actuate;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The key values and names of distlock's lock observations, replaceable by a bean of this
 * type; {@link DefaultLockObservationConvention} is the default. The observation's name,
 * and so the names of the meters derived from it, stays that of its
 * {@link DistlockObservationDocumentation} entry.
 */
public interface LockObservationConvention extends ObservationConvention<LockObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof LockObservationContext;
	}

}
