package io.github.distlock.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock in UTC that a test sets: a common time, shared by the clocks of several
 * instances, plus each instance's own offset (its skew).
 */
public final class SettableClock extends Clock {

	private final AtomicReference<Instant> now;

	private final Duration offset;

	/**
	 * Create a clock that follows the given common time.
	 * @param now the common time, which the test sets
	 * @param offset this clock's skew from the common time
	 */
	public SettableClock(AtomicReference<Instant> now, Duration offset) {
		this.now = now;
		this.offset = offset;
	}

	/**
	 * This clock's skew from the common time.
	 * @return the offset
	 */
	public Duration offset() {
		return this.offset;
	}

	@Override
	public Instant instant() {
		return this.now.get().plus(this.offset);
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		return this;
	}

}
