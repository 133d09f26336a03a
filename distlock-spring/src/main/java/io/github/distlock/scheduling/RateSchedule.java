package io.github.distlock.scheduling;

import java.time.Duration;
import java.time.Instant;

import io.github.distlock.core.JobSchedule;

/**
 * The slots of a fixed rate: every multiple of the rate since the epoch, the same on
 * every instance whenever it started.
 */
record RateSchedule(Duration rate) implements JobSchedule {

	@Override
	public Instant slotAt(Instant time) {
		long rate = this.rate.toMillis();
		return Instant.ofEpochMilli(Math.floorDiv(time.toEpochMilli(), rate) * rate);
	}

	@Override
	public Instant slotAfter(Instant slot) {
		return slotAt(slot).plus(this.rate);
	}

	@Override
	public String description() {
		return "fixedRate " + this.rate;
	}

}
