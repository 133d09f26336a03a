package io.github.distlock.core;

import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * The locks of a reactive pipeline: what a locked method returning a {@code Mono} or a
 * {@code Flux} (or another reactive type) reads to learn whether its locks still hold and
 * to get their fencing tokens. The pipeline's locks travel in its Reactor
 * {@code Context}, where the locked call put them, so they are found from anywhere inside
 * the publisher the method returned, whatever thread runs it; not from the code that
 * assembles the publisher, nor from {@link LockContext#current()}.
 *
 * <pre class="code">
 * &#64;DistributedLock("orders/#{#id}")
 * public Mono&lt;Void&gt; ship(long id) {
 *     return ReactiveLockContext.current()
 *         .flatMap((lock) -&gt; store.save(id, lock.fencingToken()));
 * }
 * </pre>
 *
 * A Kotlin {@code suspend} function reads the same context through the coroutine's lock
 * context (docs/async.md).
 */
public final class ReactiveLockContext {

	/**
	 * Key of the pipeline's {@link LockScope} in the Reactor {@code Context}: distlock's
	 * interceptor puts the scope there, and operators that start a new context can carry
	 * it over.
	 */
	public static final String SCOPE_KEY = LockScope.class.getName();

	private ReactiveLockContext() {
	}

	/**
	 * Return a {@code Mono} giving the locks of the pipeline it is subscribed in: a
	 * snapshot of the held locks whose states stay live. Empty of locks (never an empty
	 * {@code Mono}) outside a locked pipeline.
	 * @return the context
	 */
	public static Mono<LockContext> current() {
		return Mono.deferContextual((context) -> Mono.just(of(context)));
	}

	/**
	 * Return the locks of the pipeline whose Reactor {@code Context} is given, for code
	 * that has the context at hand (an operator such as
	 * {@code transformDeferredContextual}).
	 * @param context the Reactor context
	 * @return the locks, none outside a locked pipeline
	 */
	public static LockContext of(ContextView context) {
		LockScope scope = context.getOrDefault(SCOPE_KEY, null);
		return LockContext.of((scope != null) ? scope : LockScope.create("this pipeline"));
	}

}
