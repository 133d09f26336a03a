package io.github.distlock.scheduling;

import java.time.Duration;

import io.github.distlock.annotation.MissedRuns;
import io.github.distlock.core.ScheduledJob;

/**
 * A {@code @ScheduledOnce} method as parsed at startup.
 *
 * @param job the job: its name and slots
 * @param missed what to do about missed slots
 * @param catchUpWithin how old a missed slot may be for a catch-up run
 * @param earlyFiring how much earlier than its slot a firing may come and still belong to
 * it (a scheduler's timer may fire a few milliseconds before the wall clock reaches the
 * planned time)
 * @param method the method, as messages name it
 */
public record ScheduledOnceOperation(ScheduledJob job, MissedRuns missed, Duration catchUpWithin, Duration earlyFiring,
		String method) {
}
