package io.github.distlock.faults;

import java.util.ArrayList;
import java.util.List;

import io.github.distlock.core.LockHandle;

/**
 * Watches critical sections for two holders that both believe they hold the lock: when a
 * section starts, no other running section may still have its lock
 * {@link io.github.distlock.core.LockState#HELD}. Under the default policy a lock never
 * becomes held again once it is not, so checking at each entry catches every overlap.
 */
final class HolderProbe {

	private final List<LockHandle> inside = new ArrayList<>();

	private int violations;

	synchronized void enter(LockHandle handle) {
		if (handle.isHeld()) {
			for (LockHandle other : this.inside) {
				if (other.isHeld()) {
					this.violations++;
				}
			}
		}
		this.inside.add(handle);
	}

	synchronized void exit(LockHandle handle) {
		this.inside.remove(handle);
	}

	synchronized int violations() {
		return this.violations;
	}

}
