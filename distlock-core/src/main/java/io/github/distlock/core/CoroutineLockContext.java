package io.github.distlock.core;

import kotlin.coroutines.CoroutineContext;
import kotlinx.coroutines.reactor.ReactorContext;

/**
 * The locks of a coroutine: what a locked Kotlin {@code suspend} function reads to learn
 * whether its locks still hold and to get their fencing tokens. Spring calls a
 * {@code suspend} function through Reactor, and the locks travel in the coroutine's
 * {@code ReactorContext}, so they are found from the function and from everything it
 * calls in the same coroutine, whatever thread resumes it; not from
 * {@link LockContext#current()}. Needs {@code kotlinx-coroutines-reactor}, as locked
 * {@code suspend} functions do.
 *
 * <pre class="code">
 * &#64;DistributedLock("orders/#{#id}")
 * suspend fun ship(id: Long) {
 *     val lock = CoroutineLockContext.of(currentCoroutineContext())
 *     store.save(id, lock.fencingToken())
 * }
 * </pre>
 */
public final class CoroutineLockContext {

	private CoroutineLockContext() {
	}

	/**
	 * Return the locks of the coroutine with the given context, from
	 * {@code currentCoroutineContext()} (or {@code coroutineContext}) in a
	 * {@code suspend} function: a snapshot of the held locks whose states stay live.
	 * @param context the coroutine context
	 * @return the locks, none outside a locked call
	 */
	public static LockContext of(CoroutineContext context) {
		ReactorContext reactor = context.get(ReactorContext.Key);
		return (reactor != null) ? ReactiveLockContext.of(reactor.getContext())
				: LockContext.of(LockScope.create("this coroutine"));
	}

}
