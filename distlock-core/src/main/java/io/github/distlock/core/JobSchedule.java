package io.github.distlock.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The slots of a scheduled job: its planned firing times, the same on every instance.
 * Implementations are immutable and compute slots from the time alone, never from when an
 * instance started, so that every instance agrees on them.
 */
public interface JobSchedule {

	/**
	 * Return the latest slot not after the given time.
	 * @param time a time, by the clock of the instance asking
	 * @return the slot, or {@code null} if the schedule has none that early
	 */
	@Nullable Instant slotAt(Instant time);

	/**
	 * Return the first slot after the given one.
	 * @param slot a slot
	 * @return the next slot, or {@code null} if there is none
	 */
	@Nullable Instant slotAfter(Instant slot);

	/**
	 * Describe the schedule for people, such as {@code cron 0 * * * * * (UTC)}.
	 * @return the description
	 */
	String description();

}
