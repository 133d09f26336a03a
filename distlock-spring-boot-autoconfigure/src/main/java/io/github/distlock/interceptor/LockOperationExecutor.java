package io.github.distlock.interceptor;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.expression.EvaluationContext;
import org.springframework.util.function.SingletonSupplier;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockAcquisitionException;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockReentryException;
import io.github.distlock.core.LockReleaseException;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.LockUpgradeException;
import io.github.distlock.core.Locks;
import io.github.distlock.core.MultiLockHandle;

/**
 * Runs one locked call: resolves the path and the wait time, acquires the lock through
 * {@link Locks}, runs the method, and releases the lock. When the lock is not acquired
 * the method does not run; a release failure never hides the method's own exception.
 */
final class LockOperationExecutor {

	private final Supplier<Locks> locks;

	private final LockExpressionEvaluator evaluator = new LockExpressionEvaluator();

	private @Nullable BeanFactory beanFactory;

	LockOperationExecutor(Supplier<Locks> locks) {
		this.locks = SingletonSupplier.of(locks);
	}

	void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Nullable Object execute(LockOperation operation, MethodInvocation invocation, Class<?> targetClass) throws Throwable {
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
		AutoCloseable handle;
		try {
			handle = acquire(operation, locks, paths, waitTime);
		}
		catch (LockTimeoutException ex) {
			return onTimeout(operation, invocation, ex);
		}
		catch (LockReentryException ex) {
			LockReentryException reentry = new LockReentryException(operation.description() + ": " + describe(paths)
					+ " is already held by this thread and is not reentrant: " + ex.getMessage());
			reentry.initCause(ex);
			throw reentry;
		}
		catch (LockUpgradeException ex) {
			LockUpgradeException upgrade = new LockUpgradeException(operation.description() + ": " + ex.getMessage());
			upgrade.initCause(ex);
			throw upgrade;
		}
		catch (LockConfigurationException ex) {
			throw new LockConfigurationException(
					operation.description() + ": acquiring " + describe(paths) + " failed: " + ex.getMessage(), ex);
		}
		catch (LockAcquisitionException ex) {
			throw new LockAcquisitionException(
					operation.description() + ": acquiring " + describe(paths) + " failed: " + ex.getMessage(), ex);
		}
		Object result;
		try {
			result = invocation.proceed();
		}
		catch (Throwable ex) {
			LockLostException lost = lossOf(operation, handle);
			// A transaction rolled back for the loss already says so.
			if (lost != null && !(ex instanceof LockLostException)) {
				ex.addSuppressed(lost);
			}
			try {
				handle.close();
			}
			catch (Throwable releaseFailure) {
				ex.addSuppressed(releaseFailure);
			}
			throw ex;
		}
		LockLostException lost = lossOf(operation, handle);
		try {
			handle.close();
		}
		catch (LockReleaseException ex) {
			if (lost != null) {
				lost.addSuppressed(ex);
				throw lost;
			}
			throw new LockReleaseException(operation.description() + ": the method returned, but releasing "
					+ describe(paths) + " failed: " + ex.getMessage(), ex);
		}
		if (lost != null) {
			throw lost;
		}
		return result;
	}

	private static @Nullable LockLostException lossOf(LockOperation operation, AutoCloseable handle) {
		if (handle instanceof LockHandle single) {
			// The common case, checked without building a list.
			return (single.state() == LockState.HELD) ? null : lossOf(operation, List.of(single));
		}
		return lossOf(operation, ((MultiLockHandle) handle).handles());
	}

	/**
	 * Check, after the method ran and before its locks are released, that every lock was
	 * held throughout: a lock that is not {@link LockState#HELD} now was lost (or is in
	 * doubt) while the method ran, so another holder may have run at the same time and
	 * the method's result must not reach the caller as if it had been protected.
	 * @param operation the operation, for the message
	 * @param handles the handles of the call
	 * @return the exception to report, or {@code null} if every lock is still held
	 */
	static @Nullable LockLostException lossOf(LockOperation operation, List<? extends LockHandle> handles) {
		List<String> notHeld = new ArrayList<>();
		for (LockHandle handle : handles) {
			LockState state = handle.state();
			if (state != LockState.HELD) {
				notHeld.add("'" + handle.path() + "' is " + state);
			}
		}
		if (notHeld.isEmpty()) {
			return null;
		}
		return new LockLostException(operation.description() + ": lock " + String.join(", ", notHeld)
				+ " (path template '" + operation.path().template() + "') after the method ran; "
				+ "another holder may have run at the same time, so the method's result is discarded. "
				+ "Make the work idempotent or fenced (LockContext.current().fencingToken()), "
				+ "and retry the call if it must happen");
	}

	/**
	 * Take the lock of a single path, or every lock of several paths within one wait time
	 * for the whole set, in sorted order (the multi-lock releases in reverse).
	 */
	private AutoCloseable acquire(LockOperation operation, Locks locks, List<LockPath> paths, Duration waitTime) {
		if (paths.size() == 1) {
			return operation.lock(locks, paths.get(0)).acquire(waitTime);
		}
		List<ClusterLock> members = new ArrayList<>(paths.size());
		for (LockPath path : paths) {
			members.add(operation.lock(locks, path));
		}
		return locks.multi(members).acquire(waitTime);
	}

	private static String describe(List<LockPath> paths) {
		return (paths.size() == 1) ? "lock '" + paths.get(0) + "'" : "locks " + paths;
	}

	private @Nullable Object onTimeout(LockOperation operation, MethodInvocation invocation, LockTimeoutException cause)
			throws Throwable {
		// The cause already names the path, the wait time and why; add which method
		// asked.
		LockTimeoutException timeout = new LockTimeoutException(operation.description() + ": " + cause.getMessage(),
				cause.getPath(), cause.getWaitTime(), cause);
		TimeoutPolicy policy = operation.onTimeout();
		if (policy instanceof TimeoutPolicy.Skip) {
			return emptyValue(invocation.getMethod().getReturnType());
		}
		if (policy instanceof TimeoutPolicy.Fallback fallback) {
			Object[] args = invocation.getArguments();
			if (fallback.passesException()) {
				args = Arrays.copyOf(args, args.length + 1);
				args[args.length - 1] = timeout;
			}
			return AopUtils.invokeJoinpointUsingReflection(invocation.getThis(), fallback.method(), args);
		}
		throw timeout;
	}

	private static @Nullable Object emptyValue(Class<?> type) {
		if (type == Optional.class) {
			return Optional.empty();
		}
		if (type.isPrimitive() && type != void.class) {
			return Array.get(Array.newInstance(type, 1), 0);
		}
		return null;
	}

	/**
	 * The evaluation context of one call, created when a part of the path or the wait
	 * time first needs it (a call whose template reads its arguments directly never
	 * does). Used by the calling thread only.
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
