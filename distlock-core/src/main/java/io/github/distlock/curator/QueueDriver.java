package io.github.distlock.curator;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

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
 * <li>{@link #LATCH}: {@code LeaderLatch} ({@code latch-} nodes): the first node leads;
 * each other participant watches its predecessor.</li>
 * </ul>
 */
abstract sealed class QueueDriver {

	/** Node name of the mutex and of a semaphore's guard. */
	static final String LOCK_NAME = "lock-";

	/** Node name of a reader. */
	static final String READ_NAME = "__READ__";

	/** Node name of a writer. */
	static final String WRITE_NAME = "__WRIT__";

	/** Node name of a leader latch. */
	static final String LATCH_NAME = "latch-";

	/** Node name of a semaphore lease. */
	static final String LEASE_NAME = "lease-";

	static final QueueDriver MUTEX = new Exclusive(LOCK_NAME, LOCK_NAME);

	static final QueueDriver WRITE = new Exclusive(WRITE_NAME, READ_NAME, WRITE_NAME);

	static final QueueDriver READ = new Read();

	/** Curator's {@code LeaderLatch}: the first node leads, as a mutex's first holds. */
	static final QueueDriver LATCH = new Exclusive(LATCH_NAME, LATCH_NAME);

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
	 * The names of the nodes whose order a decision goes by (none for a driver that
	 * counts its nodes rather than orders them).
	 */
	String[] orderedNames() {
		return new String[] { lockName() };
	}

	/**
	 * Whether a child of the queue is one of the protocol's nodes (a waiter's or a
	 * holder's), rather than, say, the parent node of another lock whose path lies inside
	 * this one.
	 */
	boolean isQueueNode(String child) {
		return isNode(child, lockName());
	}

	/**
	 * Decide whether our node holds the lock.
	 * @param children the queue's children, as ZooKeeper listed them
	 * @param czxids the creation zxids of the children at the ceiling (see
	 * {@link #sorted})
	 * @param ours the name of our node
	 * @param downgrade whether our holder holds the write lock of the same read/write
	 * lock (a reader then holds at once)
	 * @return the verdict, or {@code null} if our node is not in the queue any more
	 */
	abstract @Nullable Verdict decide(List<String> children, Map<String, Long> czxids, String ours, boolean downgrade);

	/**
	 * Sort the queue's lock nodes, leaving out anything else (a child lock's parent node,
	 * say), in the order they were made, as Curator sorts them while sequence numbers
	 * last.
	 * <p>
	 * ZooKeeper's sequence numbers are the parent's signed 32-bit count of child changes.
	 * After 2<sup>31</sup> of them (two per lock taken and released, on a parent that
	 * never emptied) the count stays at its ceiling: a node made alone gets
	 * {@code 2147483647} again and again (deletes do not move it), and creates in flight
	 * together at that moment get {@code -2147483648}, {@code -2147483647}, ... (again at
	 * the next burst). From the ceiling on, a number tells nothing of when its node was
	 * made. So the nodes below the ceiling come first, by their number, and the nodes at
	 * the ceiling (numbered {@code 2147483647} or below zero) after them, by their
	 * creation zxid, which ZooKeeper gives in the order of creation: a node made while
	 * another holds always sorts behind it. Curator itself sorts the numbers as text, and
	 * so mis-orders the nodes from the ceiling on (see docs/failure-model.md for mixed
	 * fleets).
	 * @param children the queue's children
	 * @param czxids the creation zxids of the nodes {@linkplain #atCeiling at the
	 * ceiling} (more are ignored)
	 * @param lockNames the names of the queue's nodes
	 * @throws IllegalStateException if the creation zxid of a node at the ceiling is not
	 * given
	 */
	static List<String> sorted(List<String> children, Map<String, Long> czxids, String... lockNames) {
		List<String> nodes = new ArrayList<>(children.size());
		for (String child : children) {
			for (String lockName : lockNames) {
				if (isNode(child, lockName)) {
					nodes.add(child);
					break;
				}
			}
		}
		if (nodes.size() > 1) {
			// Below the ceiling by number, then at the ceiling by creation zxid.
			nodes.sort(Comparator.comparingInt((String node) -> isAtCeiling(sequence(node, lockNames)) ? 1 : 0)
				.thenComparingLong((String node) -> {
					int sequence = sequence(node, lockNames);
					if (!isAtCeiling(sequence)) {
						return sequence;
					}
					Long czxid = czxids.get(node);
					if (czxid == null) {
						throw new IllegalStateException("The creation zxid of " + node + " is not known");
					}
					return czxid;
				})
				.thenComparing(Comparator.naturalOrder()));
		}
		return nodes;
	}

	/**
	 * The children of the given names at the ceiling, whose place only their creation
	 * zxid tells.
	 */
	static List<String> atCeiling(List<String> children, String... lockNames) {
		List<String> nodes = new ArrayList<>(0);
		for (String child : children) {
			for (String lockName : lockNames) {
				if (isNode(child, lockName)) {
					if (isAtCeiling(sequence(child, lockName))) {
						nodes.add(child);
					}
					break;
				}
			}
		}
		return nodes;
	}

	/**
	 * Whether a sequence number was given at the ceiling of the parent's count of child
	 * changes (see {@link #sorted}).
	 */
	static boolean isAtCeiling(int sequence) {
		return sequence == Integer.MAX_VALUE || sequence < 0;
	}

	/**
	 * Whether a child is a node of the given name: the name, then a sequence number (a
	 * minus sign, then digits, once the sequence wrapped).
	 */
	static boolean isNode(String child, String lockName) {
		int at = child.lastIndexOf(lockName);
		if (at < 0) {
			return false;
		}
		int start = at + lockName.length();
		if (start < child.length() && child.charAt(start) == '-') {
			start++;
		}
		if (start == child.length()) {
			return false;
		}
		for (int i = start; i < child.length(); i++) {
			if (!Character.isDigit(child.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The sequence number of a lock node of one of the given names, as ZooKeeper made it
	 * (a signed 32-bit number).
	 */
	static int sequence(String node, String... lockNames) {
		for (String lockName : lockNames) {
			if (isNode(node, lockName)) {
				return (int) Long.parseLong(node.substring(node.lastIndexOf(lockName) + lockName.length()));
			}
		}
		throw new IllegalArgumentException("Not a lock node: " + node);
	}

	/**
	 * Whether the given node of the queue holds the lock, by the protocol's rules, as
	 * {@link #decide} tells a waiter (for the inspection of a queue).
	 */
	boolean holds(List<String> children, Map<String, Long> czxids, String node) {
		Verdict verdict = decide(children, czxids, node, false);
		return verdict != null && verdict.holds();
	}

	/** A semaphore's leases, for the given number of permits. */
	static Lease lease(int permits) {
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

		// The names of every node in the queue: a writer's queue holds readers too.
		private final String[] queueNames;

		Exclusive(String lockName, String... queueNames) {
			this.lockName = lockName;
			this.queueNames = queueNames;
		}

		@Override
		String lockName() {
			return this.lockName;
		}

		@Override
		String[] orderedNames() {
			return this.queueNames.clone();
		}

		@Override
		boolean isQueueNode(String child) {
			for (String name : this.queueNames) {
				if (isNode(child, name)) {
					return true;
				}
			}
			return false;
		}

		@Override
		@Nullable Verdict decide(List<String> children, Map<String, Long> czxids, String ours, boolean downgrade) {
			List<String> queue = sorted(children, czxids, this.queueNames);
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
		String[] orderedNames() {
			return new String[] { READ_NAME, WRITE_NAME };
		}

		@Override
		boolean isQueueNode(String child) {
			return isNode(child, READ_NAME) || isNode(child, WRITE_NAME);
		}

		@Override
		@Nullable Verdict decide(List<String> children, Map<String, Long> czxids, String ours, boolean downgrade) {
			List<String> queue = sorted(children, czxids, READ_NAME, WRITE_NAME);
			if (!queue.contains(ours)) {
				return null;
			}
			String firstWriter = null;
			for (String node : queue) {
				if (node.equals(ours)) {
					return (downgrade || firstWriter == null) ? Verdict.HOLDS : Verdict.watch(firstWriter);
				}
				if (firstWriter == null && isNode(node, WRITE_NAME)) {
					firstWriter = node;
				}
			}
			return null;
		}

	}

	/** At most as many leases as permits. */
	static final class Lease extends QueueDriver {

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
		String[] orderedNames() {
			return new String[0];
		}

		@Override
		@Nullable Verdict decide(List<String> children, Map<String, Long> czxids, String ours, boolean downgrade) {
			if (!children.contains(ours)) {
				return null;
			}
			// Curator counts every child of the leases node.
			return (children.size() <= this.permits) ? Verdict.HOLDS : Verdict.WAIT_FOR_QUEUE;
		}

		/**
		 * Which leases hold, for the inspection of a semaphore. Leases are made only by
		 * the holder of the guard, which then waits while there are more leases than
		 * permits: a lease holds once made, but for the guard holder's newest one while
		 * the leases are too many.
		 * @param leases the leases, sorted
		 * @param guardHoldersNewest the newest lease of the session that holds the guard,
		 * or {@code null} if it has none
		 * @return the leases that hold
		 */
		List<String> holders(List<String> leases, @Nullable String guardHoldersNewest) {
			if (leases.size() <= this.permits || guardHoldersNewest == null) {
				return leases;
			}
			List<String> holders = new ArrayList<>(leases);
			holders.remove(guardHoldersNewest);
			return holders;
		}

	}

}
