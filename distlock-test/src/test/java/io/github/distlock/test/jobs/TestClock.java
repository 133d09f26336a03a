package io.github.distlock.test.jobs;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One instance's clock: the test's common time plus the instance's offset. The test sets
 * the common time; every instance's clock follows it.
 */
final class TestClock extends Clock {

	private final AtomicReference<Instant> now;

	private final Duration offset;

	TestClock(AtomicReference<Instant> now, Duration offset) {
		this.now = now;
		this.offset = offset;
	}

	Duration offset() {
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
