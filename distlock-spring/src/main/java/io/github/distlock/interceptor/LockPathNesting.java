package io.github.distlock.interceptor;

import java.util.ArrayList;
import java.util.List;

import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockKind;

/**
 * Refuses lock annotations whose paths can nest: a lock path that is also an ancestor of
 * another lock path of the same subtree ({@code orders} and {@code orders/#{#id}} for two
 * mutexes). The inner lock's nodes live below the outer lock's queue, so the outer queue
 * gets a child that is not a lock node. distlock leaves such a child out, but Apache
 * Curator's recipes sort it among the lock nodes: a Curator client beside distlock may
 * wait on it for as long as the inner lock is in use, and a Curator semaphore counts it
 * as a lease. A semaphore keeps its queue in {@code locks} and its leases in
 * {@code leases} below its path, so semaphore paths may nest unless the inner one can
 * pass through one of those.
 * <p>
 * Every operation the source parses is checked against the ones parsed before it, so the
 * context fails to start naming both methods.
 */
final class LockPathNesting {

	private static final String[] SEMAPHORE_CHILDREN = { "locks", "leases" };

	private final List<Entry> entries = new ArrayList<>();

	/**
	 * Check an operation against the ones seen before and remember it.
	 * @param operation the operation just parsed
	 * @throws LockConfigurationException if its paths can nest with those of another
	 */
	synchronized void register(LockOperation operation) {
		Entry entry = new Entry(operation, operation.path().shape());
		boolean known = false;
		for (Entry other : this.entries) {
			known |= other.subtree().equals(entry.subtree()) && other.shape().equals(entry.shape());
			if (!other.subtree().equals(entry.subtree())) {
				continue;
			}
			if (other.mayContain(entry)) {
				throw nested(other.operation(), entry.operation());
			}
			if (entry.mayContain(other)) {
				throw nested(entry.operation(), other.operation());
			}
		}
		if (!known) {
			this.entries.add(entry);
		}
	}

	private static LockConfigurationException nested(LockOperation outer, LockOperation inner) {
		String where = (outer.kind() == LockKind.SEMAPHORE)
				? " has its nodes in the 'locks' and 'leases' children of the path of "
				: " has its lock nodes inside the path of ";
		return new LockConfigurationException(inner.description() + where + outer.description()
				+ ": lock paths of the same kind must not nest, because the outer lock's queue would then hold a "
				+ "child that is not a lock node, which Apache Curator's recipes on the same path take for one (a "
				+ "Curator client could wait on it for as long as the inner lock is in use, or count it as a "
				+ "lease); give the inner lock a path outside '" + outer.path().template() + "' (a sibling such as '"
				+ outer.path().template() + "-" + "..." + "' instead of '" + outer.path().template()
				+ "/...'; see docs/paths.md)");
	}

	private record Entry(LockOperation operation, LockPathShape shape) {

		String subtree() {
			return this.operation.kind().subtree();
		}

		boolean mayContain(Entry inner) {
			if (!this.shape.mayContain(inner.shape)) {
				return false;
			}
			return this.operation.kind() != LockKind.SEMAPHORE
					|| this.shape.mayBeFollowedBy(inner.shape, SEMAPHORE_CHILDREN);
		}

	}

}
