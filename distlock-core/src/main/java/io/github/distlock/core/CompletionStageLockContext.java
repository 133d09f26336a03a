package io.github.distlock.core;

import org.jspecify.annotations.Nullable;

/**
 * The locks of a locked method returning a {@link java.util.concurrent.CompletionStage},
 * while its body runs. Such a method holds its lock for the work its stage stands for,
 * not for a thread, so {@link LockContext#current()} does not see it: read the context
 * here at the start of the method, and hand it to the work that needs the fencing token
 * or the state of the lock.
 *
 * <pre class="code">
 * &#64;DistributedLock("orders/#{#id}")
 * public CompletableFuture&lt;Void&gt; ship(long id) {
 *     LockContext lock = CompletionStageLockContext.current();
 *     return CompletableFuture.runAsync(() -&gt; store.save(id, lock.fencingToken()), executor);
 * }
 * </pre>
 *
 * The context is a snapshot of the held locks whose states stay live:
 * {@link LockContext#assertHeld()} tells later whether the lock is still held.
 */
public final class CompletionStageLockContext {

	private static final ThreadLocal<LockScope> current = new ThreadLocal<>();

	private CompletionStageLockContext() {
	}

	/**
	 * Return the locks of the {@code CompletionStage} method whose body runs on this
	 * thread now; outside such a body, the locks the thread holds through synchronous
	 * calls ({@link LockContext#current()}).
	 * @return the context
	 */
	public static LockContext current() {
		LockScope scope = current.get();
		return (scope != null) ? LockContext.of(scope) : LockContext.current();
	}

	/**
	 * Mark the body of a locked {@code CompletionStage} method as running on this thread
	 * for the given holder. Called by distlock's interceptor around the body, not by
	 * applications.
	 * @param scope the holder of the call's locks
	 * @return what {@link #exit} restores
	 */
	public static @Nullable LockScope enter(LockScope scope) {
		LockScope previous = current.get();
		current.set(scope);
		return previous;
	}

	/**
	 * End what {@link #enter} began, on the same thread.
	 * @param previous what {@link #enter} returned
	 */
	public static void exit(@Nullable LockScope previous) {
		if (previous != null) {
			current.set(previous);
		}
		else {
			current.remove();
		}
	}

}
