package io.github.distlock.interceptor;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.util.context.ContextView;

import org.springframework.core.ReactiveAdapter;

import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.Handle;
import io.github.distlock.core.LockScope;
import io.github.distlock.core.ReactiveLockContext;

/**
 * Runs locked calls of methods returning a reactive type (anything Spring's
 * {@code ReactiveAdapterRegistry} adapts: {@code Mono}, {@code Flux}, RxJava, Kotlin
 * {@code Flow}, ...) and of Kotlin {@code suspend} functions, which Spring's proxies call
 * as a {@code Mono} (a {@code Flux} for a {@code Flow}). Needs Project Reactor; the
 * interceptor creates it only when Reactor is on the class path.
 * <p>
 * The call returns a publisher at once and nothing happens until it is subscribed to, as
 * with Spring's reactive transactions: each subscription requests the lock without
 * blocking any thread, invokes the method once the lock is held (so no code of the method
 * runs before), and releases the lock when the method's publisher terminates or the
 * subscription is cancelled; cancelling while waiting abandons the acquisition and leaves
 * no lock node. A lock lost while the work runs ends the publisher with a
 * {@link io.github.distlock.core.LockLostException} instead of the result (a {@code Flux}
 * also before each further element).
 * <p>
 * The holder is the pipeline: its {@link LockScope} travels in the Reactor
 * {@code Context} (for a coroutine, in its {@code ReactorContext}), so nested locked
 * calls on the same path within one pipeline or coroutine re-enter, and
 * {@link ReactiveLockContext} finds the pipeline's locks.
 */
final class ReactiveLockExecutor {

	private final LockOperationExecutor executor;

	ReactiveLockExecutor(LockOperationExecutor executor) {
		this.executor = executor;
	}

	Object execute(LockOperation operation, MethodInvocation invocation, Class<?> targetClass,
			LockedReturnType.Reactive type) {
		String holder = (type.suspending() ? "coroutine " : "reactive ")
				+ MethodDescriptions.describe(operation.method());
		Publisher<?> locked;
		if (type.singleValue()) {
			locked = Mono.deferContextual((context) -> Mono
				.from(lockedWork(operation, invocation, targetClass, type, scopeOf(context, holder), true)));
		}
		else {
			locked = Flux.deferContextual(
					(context) -> lockedWork(operation, invocation, targetClass, type, scopeOf(context, holder), false));
		}
		// A proxy awaits (or collects) a suspend function's publisher itself.
		return type.suspending() ? locked : type.adapter().fromPublisher(locked);
	}

	private static LockScope scopeOf(ContextView context, String holder) {
		LockScope scope = context.getOrDefault(ReactiveLockContext.SCOPE_KEY, null);
		return (scope != null) ? scope : LockScope.create(holder);
	}

	private Publisher<?> lockedWork(LockOperation operation, MethodInvocation invocation, Class<?> targetClass,
			LockedReturnType.Reactive type, LockScope scope, boolean single) {
		LockCall call;
		try {
			call = this.executor.prepare(operation, invocation, targetClass, "this pipeline");
		}
		catch (RuntimeException ex) {
			return Mono.error(ex);
		}
		Fence fence = operation.fenced() ? fence(operation, targetClass) : null;
		Mono<Acquired> acquired = Mono.create((sink) -> new Acquisition(call, scope, sink, fence).start());
		Publisher<?> work;
		if (single) {
			work = Mono.usingWhen(acquired, (outcome) -> Mono.from(outcome.run(invocation, type.adapter(), true)),
					Acquired::completed, Acquired::failed, Acquired::cancelled);
		}
		else {
			work = Flux.usingWhen(acquired, (outcome) -> outcome.run(invocation, type.adapter(), false),
					Acquired::completed, Acquired::failed, Acquired::cancelled);
		}
		// The method's publisher, and every locked call within it, see the scope.
		return single
				? Mono.from(work)
					.onErrorMap(ReactiveLockExecutor::unwrapReleaseFailure)
					.contextWrite((context) -> context.put(ReactiveLockContext.SCOPE_KEY, scope))
				: Flux.from(work)
					.onErrorMap(ReactiveLockExecutor::unwrapReleaseFailure)
					.contextWrite((context) -> context.put(ReactiveLockContext.SCOPE_KEY, scope));
	}

	/**
	 * The fence of a fenced call's work: a reactive transaction that commits only if no
	 * newer holder of the locks committed first. The lock wraps it.
	 */
	private Fence fence(LockOperation operation, Class<?> targetClass) {
		ReactiveTransactionFencing fencing = FencedCalls.reactive(this.executor.beanFactory(), operation.description());
		return (handle, work) -> fencing.fence(operation.description(), handle, operation.method(), targetClass, work);
	}

	@FunctionalInterface
	private interface Fence {

		Publisher<?> apply(Handle handle, Publisher<?> work);

	}

	/**
	 * Reactor wraps an error of the release step (a lock lost while the work ran, a
	 * failed release) in "Async resource cleanup failed after onComplete": the caller
	 * gets the distlock exception itself, as Spring's reactive transactions unwrap their
	 * commit failures.
	 */
	private static Throwable unwrapReleaseFailure(Throwable ex) {
		String message = ex.getMessage();
		if (ex.getCause() instanceof DistributedLockException cause && message != null
				&& message.startsWith("Async resource cleanup failed")) {
			return cause;
		}
		return ex;
	}

	/**
	 * What an acquisition gave: the lock, or what the call does instead of the method.
	 */
	private sealed interface Acquired {

		/** The work, or what stands for it when the lock was not acquired. */
		Publisher<?> run(MethodInvocation invocation, ReactiveAdapter adapter, boolean single);

		Publisher<?> completed();

		Publisher<?> failed(Throwable failure);

		Publisher<?> cancelled();

	}

	private record Held(LockCall call, Handle handle, @Nullable Fence fence) implements Acquired {

		@Override
		public Publisher<?> run(MethodInvocation invocation, ReactiveAdapter adapter, boolean single) {
			Object returned;
			try {
				returned = LockOperationExecutor.invocable(invocation).proceed();
			}
			catch (Throwable ex) {
				return Mono.error(ex);
			}
			if (returned == null) {
				return Mono.empty();
			}
			Publisher<?> work = adapter.toPublisher(returned);
			if (this.fence != null) {
				Publisher<?> fenced = this.fence.apply(this.handle, work);
				// Not Mono.from: it cancels after the value (a rollback).
				work = single ? Flux.from(fenced).singleOrEmpty() : fenced;
			}
			if (single) {
				// A Mono's value is held back until completed() found the lock held.
				return work;
			}
			return Flux.from(work).handle((element, sink) -> {
				RuntimeException lost = this.call.lossOf(this.handle);
				if (lost != null) {
					sink.error(lost);
				}
				else {
					sink.next(element);
				}
			});
		}

		@Override
		public Publisher<?> completed() {
			RuntimeException failure = this.call.releaseAfterSuccess(this.handle);
			return (failure != null) ? Mono.error(failure) : Mono.empty();
		}

		@Override
		public Publisher<?> failed(Throwable failure) {
			this.call.releaseAfterFailure(this.handle, failure);
			return Mono.empty();
		}

		@Override
		public Publisher<?> cancelled() {
			LockCall.release(this.handle, null);
			return Mono.empty();
		}

	}

	/**
	 * The lock was not acquired: the publisher of what the call does instead of the
	 * method, as {@link NotAcquired} decided.
	 */
	private record Refused(NotAcquired outcome) implements Acquired {

		@Override
		public Publisher<?> run(MethodInvocation invocation, ReactiveAdapter adapter, boolean single) {
			Object returned;
			try {
				returned = this.outcome.proceedInstead(invocation);
			}
			catch (Throwable ex) {
				return Mono.error(ex);
			}
			return (returned != null) ? adapter.toPublisher(returned) : Mono.empty();
		}

		@Override
		public Publisher<?> completed() {
			return Mono.empty();
		}

		@Override
		public Publisher<?> failed(Throwable failure) {
			return Mono.empty();
		}

		@Override
		public Publisher<?> cancelled() {
			return Mono.empty();
		}

	}

	/**
	 * Bridges an acquisition's future to the {@code Mono} of one subscription, so that a
	 * granted lock is either handed to the subscription exactly once or released: a
	 * cancellation while waiting abandons the acquisition, and one that crosses the grant
	 * releases the lock.
	 */
	private static final class Acquisition {

		private static final int WAITING = 0;

		private static final int DELIVERED = 1;

		private static final int CANCELLED = 2;

		private final LockCall call;

		private final LockScope scope;

		private final MonoSink<Acquired> sink;

		private final AtomicInteger state = new AtomicInteger(WAITING);

		private final @Nullable Fence fence;

		private volatile @Nullable Handle delivered;

		Acquisition(LockCall call, LockScope scope, MonoSink<Acquired> sink, @Nullable Fence fence) {
			this.call = call;
			this.scope = scope;
			this.sink = sink;
			this.fence = fence;
		}

		void start() {
			CompletableFuture<? extends Handle> future = this.call.acquireAsync(this.scope);
			this.sink.onCancel(() -> cancel(future));
			this.call.whenAcquired(future, this::complete);
		}

		private void complete(@Nullable Handle handle, @Nullable Throwable failure) {
			if (handle != null) {
				this.delivered = handle;
				if (this.state.compareAndSet(WAITING, DELIVERED)) {
					this.sink.success(new Held(this.call, handle, this.fence));
				}
				else {
					LockCall.release(handle, null);
				}
				return;
			}
			if (!this.state.compareAndSet(WAITING, DELIVERED)) {
				return;
			}
			this.sink.success(new Refused(
					NotAcquired.decide(this.call, (failure != null) ? failure : new IllegalStateException("No lock"))));
		}

		private void cancel(CompletableFuture<? extends Handle> future) {
			int previous = this.state.getAndSet(CANCELLED);
			if (previous == WAITING) {
				// If the lock was granted at this moment, complete() releases it.
				future.cancel(false);
			}
			else if (previous == DELIVERED) {
				// Cancelled while the lock was being handed over: the subscription may
				// drop it. Releasing twice is harmless.
				Handle handle = this.delivered;
				if (handle != null) {
					LockCall.release(handle, null);
				}
			}
		}

	}

}
