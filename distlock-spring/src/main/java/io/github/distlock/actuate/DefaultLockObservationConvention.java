package io.github.distlock.actuate;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

import io.github.distlock.actuate.DistlockObservationDocumentation.HighCardinalityKeyNames;
import io.github.distlock.actuate.DistlockObservationDocumentation.LowCardinalityKeyNames;

/**
 * The default {@link LockObservationConvention}. Every stopped observation of one name
 * carries the same low-cardinality keys (a meter registry such as Prometheus's refuses a
 * second timer of one name with other tag keys): {@code kind} and {@code name} (the path
 * template, never the resolved path), plus {@code outcome} on an acquisition and
 * {@code lost} on a hold. The resolved path and the fencing token are high-cardinality.
 */
public class DefaultLockObservationConvention implements LockObservationConvention {

	/** The shared instance. */
	public static final DefaultLockObservationConvention INSTANCE = new DefaultLockObservationConvention();

	@Override
	public String getContextualName(LockObservationContext context) {
		return ((context.phase() == DistlockObservationDocumentation.LOCK_HOLD) ? "hold " : "acquire ")
				+ context.path().template();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
		KeyValues common = KeyValues.of(LowCardinalityKeyNames.KIND.withValue(LockTags.kind(context.kind())),
				LowCardinalityKeyNames.NAME.withValue(context.path().template()));
		if (context.phase() == DistlockObservationDocumentation.LOCK_HOLD) {
			// Until the release, the long-task timer and the loss event need no lost key.
			return context.released()
					? common.and(LowCardinalityKeyNames.LOST.withValue(Boolean.toString(context.lost()))) : common;
		}
		String outcome = context.outcome();
		// While the acquisition waits, the long-task timer needs no outcome.
		return (outcome != null) ? common.and(LowCardinalityKeyNames.OUTCOME.withValue(outcome)) : common;
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(LockObservationContext context) {
		KeyValues values = KeyValues.of(HighCardinalityKeyNames.PATH.withValue(context.path().value()));
		if (context.phase() == DistlockObservationDocumentation.LOCK_HOLD) {
			return values.and(KeyValue.of(HighCardinalityKeyNames.FENCING_TOKEN.asString(),
					Long.toString(context.fencingToken())));
		}
		return values;
	}

}
