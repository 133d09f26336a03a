package io.github.distlock.test;

import io.github.distlock.core.spi.NoLockHeldPolicy;

/**
 * The kit's {@link NoLockHeldPolicy}, registered through {@code META-INF/services}: it
 * lets {@code LockContext.assertHeld()} pass outside every lock while
 * {@link LockAssertions}' test mode is on. Not for use by tests: switch the mode with
 * {@link LockAssertions}.
 */
public final class LockAssertionsPolicy implements NoLockHeldPolicy {

	/** Created by {@link java.util.ServiceLoader}. */
	public LockAssertionsPolicy() {
	}

	@Override
	public boolean assertHeldPasses() {
		return LockAssertions.isAssertHeldPassing();
	}

}
