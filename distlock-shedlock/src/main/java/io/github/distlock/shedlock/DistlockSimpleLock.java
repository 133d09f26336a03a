package io.github.distlock.shedlock;

import java.util.Optional;

import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * What {@link DistlockLockProvider} hands to ShedLock: one {@link ShedLockHold} under one
 * configuration. ShedLock's base class makes it valid until unlocked or extended (the
 * extension hands out a new one), as every ShedLock provider's lock is.
 */
final class DistlockSimpleLock extends AbstractSimpleLock {

	private final ShedLockHold hold;

	DistlockSimpleLock(LockConfiguration lockConfiguration, ShedLockHold hold) {
		super(lockConfiguration);
		this.hold = hold;
	}

	@Override
	protected void doUnlock() {
		this.hold.unlock();
	}

	@Override
	protected Optional<SimpleLock> doExtend(LockConfiguration newConfiguration) {
		if (!this.hold.extend(newConfiguration.getLockAtMostFor(), newConfiguration.getLockAtLeastFor())) {
			return Optional.empty();
		}
		return Optional.of(new DistlockSimpleLock(newConfiguration, this.hold));
	}

	@Override
	public String toString() {
		return "DistlockSimpleLock[" + this.lockConfiguration + ", " + this.hold + "]";
	}

}
