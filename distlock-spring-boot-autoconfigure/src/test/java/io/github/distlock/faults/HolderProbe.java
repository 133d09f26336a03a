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

	private final List<String> details = new ArrayList<>();

	synchronized void enter(LockHandle handle) {
		if (handle.isHeld()) {
			for (LockHandle other : this.inside) {
				if (other.isHeld()) {
					this.violations++;
					if (this.details.size() < 5) {
						this.details.add(Thread.currentThread().getName() + " entered with " + handle + " while "
								+ other + " was inside");
					}
				}
			}
		}
		this.inside.add(handle);
	}

	synchronized void exit(LockHandle handle) {
		this.inside.remove(handle);
	}

	/** The first overlaps found, described. */
	synchronized List<String> details() {
		return List.copyOf(this.details);
	}

	synchronized int violations() {
		return this.violations;
	}

}
