package io.github.distlock.curator;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.recipes.locks.LockInternals;
import org.apache.curator.framework.recipes.locks.LockInternalsSorter;
import org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver;
import org.jspecify.annotations.Nullable;

/**
 * The rules of one lock protocol, node for node those of Curator's recipes: how a node is
 * named, how the queue sorts, when a node may hold the lock and what a waiter watches.
 * The queue mechanics (create, read, watch, delete) are {@link QueuePosition}'s, the same
 * for every protocol.
 * <ul>
 * <li>{@link #MUTEX}: {@code InterProcessMutex} ({@code lock-} nodes): the first node
 * holds; each waiter watches its predecessor. Also the guard of a semaphore.</li>
 * <li>{@link #READ} and {@link #WRITE}: {@code InterProcessReadWriteLock}
 * ({@code __READ__} and {@code __WRIT__} nodes in one queue): a writer holds when it is
 * first and watches its predecessor; a reader holds when no writer is ahead of it (or
 * when its holder holds the write lock: a downgrade) and watches the first writer.</li>
 * <li>{@link #lease(int)}: the leases of {@code InterProcessSemaphoreV2} ({@code lease-}
 * nodes, taken only while holding the semaphore's guard): a lease holds while there are
 * no more leases than permits; a waiting lease watches the children.</li>
 * </ul>
 */
abstract sealed class QueueDriver {

	/** Node name of the mutex and of a semaphore's guard. */
	static final String LOCK_NAME = "lock-";

	/** Node name of a reader. */
	static final String READ_NAME = "__READ__";

	/** Node name of a writer. */
	static final String WRITE_NAME = "__WRIT__";

	/** Node name of a semaphore lease. */
	static final String LEASE_NAME = "lease-";

	static final QueueDriver MUTEX = new Exclusive(LOCK_NAME, QueueDriver::standardSort);

	static final QueueDriver WRITE = new Exclusive(WRITE_NAME, QueueDriver::readWriteSort);

	static final QueueDriver READ = new Read();

	/** Name the protocol gives its nodes, before ZooKeeper's sequence number. */
	abstract String lockName();

	/**
	 * Whether a waiter is told of every change of the queue (its children read sets a
	 * watch) rather than watching one node.
	 */
	boolean watchesQueue() {
		return false;
	}

	/**
	 * Decide whether our node holds the lock.
	 * @param children the queue's children, as ZooKeeper listed them
	 * @param ours the name of our node
	 * @param downgrade whether our holder holds the write lock of the same read/write
	 * lock (a reader then holds at once)
	 * @return the verdict, or {@code null} if our node is not in the queue any more
	 */
	abstract @Nullable Verdict decide(List<String> children, String ours, boolean downgrade);

	/**
	 * Sort the queue's lock nodes, leaving out anything else (a child lock's parent node,
	 * say), as Curator sorts them: by the sequence number after the lock name.
	 */
	static List<String> sorted(List<String> children, LockInternalsSorter sorter, String... lockNames) {
		List<String> nodes = new ArrayList<>(children.size());
		for (String child : children) {
			for (String lockName : lockNames) {
				if (isNode(child, lockName)) {
					nodes.add(child);
					break;
				}
			}
		}
		return (nodes.size() < 2) ? nodes : LockInternals.getSortedChildren(lockNames[0], sorter, nodes);
	}

	/** Whether a child is a node of the given name: the name, then a sequence number. */
	static boolean isNode(String child, String lockName) {
		int at = child.lastIndexOf(lockName);
		if (at < 0 || at + lockName.length() == child.length()) {
			return false;
		}
		for (int i = at + lockName.length(); i < child.length(); i++) {
			if (!Character.isDigit(child.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	private static String standardSort(String child, String lockName) {
		return StandardLockInternalsDriver.standardFixForSorting(child, lockName);
	}

	// Readers and writers share one queue, sorted by sequence number whatever the side.
	private static String readWriteSort(String child, String lockName) {
		return StandardLockInternalsDriver
			.standardFixForSorting(StandardLockInternalsDriver.standardFixForSorting(child, READ_NAME), WRITE_NAME);
	}

	/** A semaphore's leases, for the given number of permits. */
	static QueueDriver lease(int permits) {
		return new Lease(permits);
	}

	/**
	 * The outcome of one look at the queue.
	 *
	 * @param holds whether our node holds the lock
	 * @param watch the node to watch until it changes, or {@code null} to wait for a
	 * change of the queue (when the driver {@linkplain #watchesQueue() watches the
	 * queue})
	 */
	record Verdict(boolean holds, @Nullable String watch) {

		static final Verdict HOLDS = new Verdict(true, null);

		static final Verdict WAIT_FOR_QUEUE = new Verdict(false, null);

		static Verdict watch(String node) {
			return new Verdict(false, node);
		}

	}

	/** First node holds, each waiter watches its predecessor. */
	private static final class Exclusive extends QueueDriver {

		private final String lockName;

		private final LockInternalsSorter sorter;

		Exclusive(String lockName, LockInternalsSorter sorter) {
			this.lockName = lockName;
			this.sorter = sorter;
		}

		@Override
		String lockName() {
			return this.lockName;
		}

		@Override
		@Nullable Verdict decide(List<String> children, String ours, boolean downgrade) {
			List<String> queue = (this.lockName.equals(LOCK_NAME)) ? sorted(children, this.sorter, LOCK_NAME)
					: sorted(children, this.sorter, READ_NAME, WRITE_NAME);
			int index = queue.indexOf(ours);
			if (index < 0) {
				return null;
			}
			return (index == 0) ? Verdict.HOLDS : Verdict.watch(queue.get(index - 1));
		}

	}

	/** Readers share the lock until the first writer in the queue. */
	private static final class Read extends QueueDriver {

		@Override
		String lockName() {
			return READ_NAME;
		}

		@Override
		@Nullable Verdict decide(List<String> children, String ours, boolean downgrade) {
			List<String> queue = sorted(children, QueueDriver::readWriteSort, READ_NAME, WRITE_NAME);
			String firstWriter = null;
			for (String node : queue) {
				if (node.equals(ours)) {
					return (downgrade || firstWriter == null) ? Verdict.HOLDS : Verdict.watch(firstWriter);
				}
				if (firstWriter == null && node.contains(WRITE_NAME)) {
					firstWriter = node;
				}
			}
			return null;
		}

	}

	/** At most as many leases as permits. */
	private static final class Lease extends QueueDriver {

		private final int permits;

		Lease(int permits) {
			this.permits = permits;
		}

		@Override
		String lockName() {
			return LEASE_NAME;
		}

		@Override
		boolean watchesQueue() {
			return true;
		}

		@Override
		@Nullable Verdict decide(List<String> children, String ours, boolean downgrade) {
			if (!children.contains(ours)) {
				return null;
			}
			// Curator counts every child of the leases node.
			return (children.size() <= this.permits) ? Verdict.HOLDS : Verdict.WAIT_FOR_QUEUE;
		}

	}

}
