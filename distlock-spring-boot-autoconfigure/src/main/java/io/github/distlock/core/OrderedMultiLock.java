package io.github.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link MultiLock} that takes its locks in one global order, sorted by kind and path, so
 * that two callers locking overlapping sets in any order never wait for each other in a
 * cycle. The wait time covers the whole set: each lock gets what is left of it, not the
 * full time as Curator's {@code InterProcessMultiLock} gives.
 */
final class OrderedMultiLock implements MultiLock {

	private static final Comparator<ClusterLock> ORDER = Comparator
		.comparing((ClusterLock lock) -> lock.kind().subtree())
		.thenComparing(ClusterLock::path)
		.thenComparing(ClusterLock::kind);

	private final List<ClusterLock> locks;

	OrderedMultiLock(Collection<? extends ClusterLock> locks) {
		if (locks.isEmpty()) {
			throw new IllegalArgumentException("A multi-lock needs at least one lock");
		}
		Map<String, ClusterLock> distinct = new LinkedHashMap<>();
		locks.stream().sorted(ORDER).forEach((lock) -> distinct.putIfAbsent(lock.kind() + ":" + lock.path(), lock));
		this.locks = List.copyOf(distinct.values());
	}

	@Override
	public List<ClusterLock> locks() {
		return this.locks;
	}

	@Override
	public MultiLockHandle acquire(Duration waitTime) {
		boolean forever = waitTime.isNegative();
		long deadline = System.nanoTime() + (forever ? 0 : saturatedNanos(waitTime));
		List<LockHandle> held = new ArrayList<>(this.locks.size());
		try {
			for (ClusterLock lock : this.locks) {
				Duration remaining = forever ? waitTime : Duration.ofNanos(Math.max(deadline - System.nanoTime(), 0));
				if (!forever && !waitTime.isZero() && remaining.isZero()) {
					throw new LockTimeoutException("Lock '" + lock.path() + "' of a multi-lock over " + paths()
							+ " was not reached within " + waitTime.toMillis() + "ms for the whole set", lock.path(),
							waitTime, null);
				}
				try {
					held.add(lock.acquire(remaining));
				}
				catch (LockTimeoutException ex) {
					throw new LockTimeoutException("Multi-lock over " + paths() + " was not acquired within "
							+ waitTime.toMillis() + "ms for the whole set: " + ex.getMessage(), lock.path(), waitTime,
							ex);
				}
			}
		}
		catch (RuntimeException | Error ex) {
			releaseInReverse(held, ex);
			throw ex;
		}
		return new Handle(held);
	}

	private List<String> paths() {
		return this.locks.stream().map((lock) -> lock.path().value()).toList();
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException ex) {
			return Long.MAX_VALUE / 2;
		}
	}

	private static void releaseInReverse(List<LockHandle> held, Throwable primary) {
		for (int i = held.size() - 1; i >= 0; i--) {
			try {
				held.get(i).close();
			}
			catch (RuntimeException ex) {
				primary.addSuppressed(ex);
			}
		}
	}

	private record Handle(List<LockHandle> handles) implements MultiLockHandle {

		Handle(List<LockHandle> handles) {
			this.handles = List.copyOf(handles);
		}

		@Override
		public void close() {
			RuntimeException failure = null;
			for (int i = this.handles.size() - 1; i >= 0; i--) {
				try {
					this.handles.get(i).close();
				}
				catch (RuntimeException ex) {
					if (failure == null) {
						failure = ex;
					}
					else {
						failure.addSuppressed(ex);
					}
				}
			}
			if (failure != null) {
				throw failure;
			}
		}

	}

}
