package io.github.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiFunction;

import org.jspecify.annotations.Nullable;

/**
 * {@link MultiLock} that takes its locks in one global order, sorted by kind and path, so
 * that two callers locking overlapping sets in any order never wait for each other in a
 * cycle. The wait time covers the whole set: each lock gets what is left of it, not the
 * full time as Curator's {@code InterProcessMultiLock} gives. A lock lost while the set
 * waits for the others fails the whole set with a {@link LockLostException}.
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
		// One lock is taken once, whatever the kinds it was asked with: both kinds of
		// mutex at one path are one lock, and so are both sides of a read/write lock.
		Map<String, ClusterLock> distinct = new LinkedHashMap<>();
		locks.stream()
			.sorted(ORDER)
			.forEach((lock) -> distinct.merge(lock.kind().subtree() + ":" + lock.path(), lock,
					OrderedMultiLock::stricter));
		this.locks = List.copyOf(distinct.values());
	}

	/**
	 * Of two kinds asked for one lock, the one that grants what both ask: the write side
	 * (a writer may read), and the mutex without reentrancy (its holder asked to be
	 * refused a second time).
	 */
	private static ClusterLock stricter(ClusterLock first, ClusterLock second) {
		boolean grantsMore = (second.kind() == LockKind.WRITE)
				|| (second.kind() == LockKind.MUTEX && !second.isReentrant());
		return grantsMore ? second : first;
	}

	@Override
	public List<ClusterLock> locks() {
		return this.locks;
	}

	@Override
	public MultiLockHandle acquire(Duration waitTime) {
		CompletableFuture<MultiLockHandle> result = acquire(waitTime, (lock, remaining) -> {
			try {
				return CompletableFuture.completedFuture(lock.acquire(remaining));
			}
			catch (RuntimeException | Error ex) {
				return CompletableFuture.failedFuture(ex);
			}
		});
		// Complete already: every step ran on this thread.
		try {
			return result.join();
		}
		catch (CompletionException ex) {
			Throwable cause = ex.getCause();
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

	@Override
	public CompletableFuture<MultiLockHandle> acquireAsync(Duration waitTime, LockScope scope) {
		return acquire(waitTime, (lock, remaining) -> lock.acquireAsync(remaining, scope));
	}

	/**
	 * Take the locks one after the other, each with what is left of the wait time, and
	 * release those taken in reverse order if one fails.
	 */
	private CompletableFuture<MultiLockHandle> acquire(Duration waitTime,
			BiFunction<ClusterLock, Duration, CompletableFuture<LockHandle>> step) {
		Chain chain = new Chain(waitTime, step);
		chain.next();
		return chain.result;
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

	private static void releaseInReverse(List<LockHandle> held, @Nullable Throwable primary) {
		for (int i = held.size() - 1; i >= 0; i--) {
			try {
				held.get(i).close();
			}
			catch (RuntimeException ex) {
				if (primary != null) {
					primary.addSuppressed(ex);
				}
			}
		}
	}

	/** One acquisition of the whole set. */
	private final class Chain {

		private final Duration waitTime;

		private final boolean forever;

		private final long deadline;

		private final BiFunction<ClusterLock, Duration, CompletableFuture<LockHandle>> step;

		private final List<LockHandle> held = new ArrayList<>();

		private final CompletableFuture<MultiLockHandle> result = new CompletableFuture<>();

		private volatile @Nullable CompletableFuture<LockHandle> current;

		Chain(Duration waitTime, BiFunction<ClusterLock, Duration, CompletableFuture<LockHandle>> step) {
			this.waitTime = waitTime;
			this.forever = waitTime.isNegative();
			this.deadline = System.nanoTime() + (this.forever ? 0 : saturatedNanos(waitTime));
			this.step = step;
			this.result.whenComplete((handle, ex) -> {
				if (ex instanceof CancellationException) {
					CompletableFuture<LockHandle> pending = this.current;
					if (pending != null) {
						pending.cancel(false);
					}
				}
			});
		}

		void next() {
			int index = this.held.size();
			if (index == OrderedMultiLock.this.locks.size()) {
				// A lock taken early may have been lost while the set waited for a later
				// one (its session ended): the set is not handed out without it.
				for (LockHandle taken : this.held) {
					LockState state = taken.state();
					if (state != LockState.HELD) {
						fail(new LockLostException("Lock '" + taken.path() + "' of a multi-lock over " + paths()
								+ " is " + state + ": it was lost while the multi-lock waited for its other locks,"
								+ " so the set is not held"));
						return;
					}
				}
				MultiLockHandle handle = new SetHandle(this.held);
				if (!this.result.complete(handle)) {
					handle.close();
				}
				return;
			}
			ClusterLock lock = OrderedMultiLock.this.locks.get(index);
			Duration remaining = this.forever ? this.waitTime
					: Duration.ofNanos(Math.max(this.deadline - System.nanoTime(), 0));
			if (!this.forever && !this.waitTime.isZero() && remaining.isZero()) {
				fail(new LockTimeoutException("Lock '" + lock.path() + "' of a multi-lock over " + paths()
						+ " was not reached within " + this.waitTime.toMillis() + "ms for the whole set", lock.path(),
						this.waitTime, null));
				return;
			}
			CompletableFuture<LockHandle> pending = this.step.apply(lock, remaining);
			this.current = pending;
			if (this.result.isCancelled()) {
				// Cancelled while the step started: the cancellation did not see it.
				pending.cancel(false);
			}
			pending.whenComplete((handle, ex) -> {
				if (ex != null) {
					Throwable cause = (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
					if (cause instanceof LockTimeoutException timeout) {
						cause = new LockTimeoutException(
								"Multi-lock over " + paths() + " was not acquired within " + this.waitTime.toMillis()
										+ "ms for the whole set: " + timeout.getMessage(),
								lock.path(), this.waitTime, timeout);
					}
					fail(cause);
				}
				else if (this.result.isDone()) {
					// Cancelled meanwhile.
					this.held.add(handle);
					releaseInReverse(this.held, null);
				}
				else {
					this.held.add(handle);
					next();
				}
			});
		}

		private void fail(Throwable failure) {
			releaseInReverse(this.held, failure);
			this.result.completeExceptionally(failure);
		}

	}

	private record SetHandle(List<LockHandle> handles) implements MultiLockHandle {

		SetHandle(List<LockHandle> handles) {
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

		@Override
		public CompletableFuture<Void> closeAsync() {
			List<CompletableFuture<Void>> confirmations = new ArrayList<>(this.handles.size());
			for (int i = this.handles.size() - 1; i >= 0; i--) {
				confirmations.add(this.handles.get(i).closeAsync());
			}
			return CompletableFuture.allOf(confirmations.toArray(CompletableFuture[]::new));
		}

	}

}
