package io.github.distlock.scheduling;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;

import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.support.CronExpression;

import io.github.distlock.core.JobSchedule;

/**
 * The slots of a cron expression in a time zone: the times Spring's {@code CronTrigger}
 * fires at, computed from the time alone.
 */
record CronSchedule(CronExpression cron, ZoneId zone) implements JobSchedule {

	/**
	 * How far back the search for the latest slot goes at most: a little more than eight
	 * years, enough for a cron that fires on February 29 only.
	 */
	private static final long MAX_LOOK_BACK_SECONDS = 1L << 28;

	@Override
	public @Nullable Instant slotAt(Instant time) {
		ZonedDateTime at = time.atZone(this.zone);
		// CronExpression only looks forward: look back from ever further, doubling, until
		// a slot is found, then walk forward to the latest one not after the time.
		for (long back = 1; back <= MAX_LOOK_BACK_SECONDS; back *= 2) {
			ZonedDateTime slot = this.cron.next(at.minus(Duration.ofSeconds(back)));
			if (slot != null && !slot.isAfter(at)) {
				ZonedDateTime next = this.cron.next(slot);
				while (next != null && !next.isAfter(at)) {
					slot = next;
					next = this.cron.next(slot);
				}
				return slot.toInstant();
			}
		}
		return null;
	}

	@Override
	public @Nullable Instant slotAfter(Instant slot) {
		ZonedDateTime next = this.cron.next(slot.atZone(this.zone));
		return (next != null) ? next.toInstant() : null;
	}

	@Override
	public String description() {
		return "cron " + this.cron + " (" + this.zone + ")";
	}

}
