package io.github.distlock.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.expression.EvaluationContext;
import org.springframework.util.function.SingletonSupplier;

import io.github.distlock.core.Handle;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;

/**
 * Runs one locked call: resolves the path and the wait time, acquires the lock through
 * {@link Locks}, runs the method, and releases the lock when the method's work ends. When
 * the lock is not acquired the method does not run, and the call does what
 * {@link NotAcquired} decides; a release failure never hides the method's own exception.
 * <p>
 * How long the work lasts depends on what the method returns ({@link LockedReturnType}),
 * as in Spring's {@code CacheAspectSupport}: a plain value is handled here, a
 * {@code CompletionStage} by {@link CompletionStageLockExecutor}, and a reactive type or
 * a Kotlin {@code suspend} function by {@link ReactiveLockExecutor}, which is created on
 * the first such call (only then is Project Reactor known to be on the class path). The
 * shape of the return type is the operation's, decided when its annotation was parsed.
 */
final class LockOperationExecutor {

	private final Supplier<Locks> locks;

	private final LockExpressionEvaluator evaluator;

	private final CompletionStageLockExecutor stages = new CompletionStageLockExecutor(this);

	// Created on the first reactive call: only then is Project Reactor known to be there.
	private final Supplier<ReactiveLockExecutor> reactive = SingletonSupplier.of(() -> new ReactiveLockExecutor(this));

	private @Nullable BeanFactory beanFactory;

	LockOperationExecutor(Supplier<Locks> locks, LockExpressionEvaluator evaluator) {
		this.locks = SingletonSupplier.of(locks);
		this.evaluator = evaluator;
	}

	void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Nullable BeanFactory beanFactory() {
		return this.beanFactory;
	}

	@Nullable Object execute(LockOperation operation, MethodInvocation invocation, Class<?> targetClass) throws Throwable {
		LockedReturnType returnType = operation.returnType();
		if (returnType instanceof LockedReturnType.Stage) {
			return this.stages.execute(operation, invocation, targetClass);
		}
		if (returnType instanceof LockedReturnType.Reactive reactiveType) {
			return this.reactive.get().execute(operation, invocation, targetClass, reactiveType);
		}
		return executeSynchronously(operation, invocation, targetClass);
	}

	private @Nullable Object executeSynchronously(LockOperation operation, MethodInvocation invocation,
			Class<?> targetClass) throws Throwable {
		LockCall call = prepare(operation, invocation, targetClass, "this thread");
		Handle handle;
		try {
			handle = call.acquire();
		}
		catch (RuntimeException ex) {
			return NotAcquired.decide(call, ex).proceedInstead(invocation);
		}
		TransactionFencing.FencedCall fence = null;
		Object result;
		try {
			fence = operation.fenced() ? fencing(operation).enter(operation.description(), handle) : null;
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			if (fence != null) {
				fence.close();
			}
			call.releaseAfterFailure(handle, ex);
			throw ex;
		}
		if (fence != null) {
			fence.close();
		}
		RuntimeException failure = call.releaseAfterSuccess(handle);
		if (failure != null) {
			throw failure;
		}
		if (fence != null && !fence.fencedTransaction()) {
			throw new LockConfigurationException(operation.description() + ": fenced = true, but no transaction "
					+ "ran in the call, so its writes were not fenced; annotate the method with @Transactional "
					+ "(the lock wraps it) or call it inside a transaction");
		}
		return result;
	}

	private TransactionFencing fencing(LockOperation operation) {
		TransactionFencing fencing = FencingCollaborators.find(this.beanFactory);
		if (fencing == null) {
			throw new LockConfigurationException(operation.description()
					+ ": fenced = true, but the application cannot fence transactions (no TransactionFencing bean)");
		}
		return fencing;
	}

	/**
	 * Resolve the paths and the wait time of one call. Evaluates the expressions on the
	 * calling thread; each call gets its own evaluation context.
	 * @param operation the operation
	 * @param invocation the call
	 * @param targetClass the target class
	 * @param holder who will hold the lock, for messages
	 * @return the call
	 * @throws io.github.distlock.core.DistributedLockException if a path or the wait time
	 * cannot be resolved
	 */
	LockCall prepare(LockOperation operation, MethodInvocation invocation, Class<?> targetClass, String holder) {
		Object[] arguments = invocation.getArguments();
		Supplier<EvaluationContext> context = new CallContext(this.evaluator, operation.method(), arguments,
				invocation.getThis(), targetClass, this.beanFactory);
		List<LockPath> paths = operation.path().resolve(context, arguments, operation.description());
		if (paths.size() > 1 && !operation.supportsMultiLock()) {
			throw new LockConfigurationException(operation.description() + ": path template '" + operation.path()
					+ "' resolved to " + paths.size() + " paths " + paths + ", but a semaphore guards one path and "
					+ "cannot be taken over several (no multi-lock for @Semaphore); make every #{...} part give "
					+ "a single value");
		}
		Locks locks = this.locks.get();
		Duration waitTime = operation.waitTime().resolve(context, locks.defaultWaitTime(), operation.description());
		Duration holdAtLeast = operation.holdAtLeast().resolve(context, Duration.ZERO, operation.description());
		return new LockCall(operation, locks, paths, waitTime, holdAtLeast, holder);
	}

	/**
	 * Return an invocation that runs the rest of the interceptor chain and the method
	 * when proceeded, as often as needed: a reactive method's work is invoked again for
	 * each subscription, possibly after this interceptor returned.
	 * @param invocation the call
	 * @return a fresh invocation
	 */
	static MethodInvocation invocable(MethodInvocation invocation) {
		return (invocation instanceof ProxyMethodInvocation proxyInvocation) ? proxyInvocation.invocableClone()
				: invocation;
	}

	/**
	 * The evaluation context of one call, created when a part of the path or the wait
	 * time first needs it (a call whose template reads its arguments directly never
	 * does). Used by one thread at a time.
	 */
	private static final class CallContext implements Supplier<EvaluationContext> {

		private final LockExpressionEvaluator evaluator;

		private final Method method;

		private final @Nullable Object[] arguments;

		private final @Nullable Object target;

		private final Class<?> targetClass;

		private final @Nullable BeanFactory beanFactory;

		private @Nullable EvaluationContext context;

		CallContext(LockExpressionEvaluator evaluator, Method method, @Nullable Object[] arguments,
				@Nullable Object target, Class<?> targetClass, @Nullable BeanFactory beanFactory) {
			this.evaluator = evaluator;
			this.method = method;
			this.arguments = arguments;
			this.target = target;
			this.targetClass = targetClass;
			this.beanFactory = beanFactory;
		}

		@Override
		public EvaluationContext get() {
			EvaluationContext result = this.context;
			if (result == null) {
				result = this.evaluator.createContext(this.method, this.arguments, this.target, this.targetClass,
						this.beanFactory);
				this.context = result;
			}
			return result;
		}

	}

}
