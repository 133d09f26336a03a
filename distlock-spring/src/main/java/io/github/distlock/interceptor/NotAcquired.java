package io.github.distlock.interceptor;

import java.util.Arrays;

import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.KotlinDetector;

import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.NotLeaderException;

/**
 * What a locked call does when its lock was not acquired: the method never runs, and the
 * call skips ({@link Skip}), calls the fallback ({@link Fallback}) or fails
 * ({@link Fail}). Decided here once for every kind of method; the synchronous, stage and
 * reactive executors only adapt {@link #proceedInstead what the call returns instead} as
 * they adapt what the method returns.
 * <p>
 * A lock not acquired in time ({@link LockTimeoutException}), or a group this instance
 * does not lead ({@link NotLeaderException}), goes by the operation's
 * {@link LockOperation#onTimeout() timeout policy}; any other failure of the acquisition
 * fails the call, {@linkplain LockCall#described described} for the caller.
 */
sealed interface NotAcquired {

	/**
	 * Decide what a call whose acquisition failed does.
	 * @param call the call
	 * @param failure how the acquisition failed, possibly wrapped by a future
	 * @return the outcome
	 */
	static NotAcquired decide(LockCall call, Throwable failure) {
		Throwable cause = LockCall.unwrap(failure);
		if (!(cause instanceof LockTimeoutException) && !(cause instanceof NotLeaderException)) {
			return new Fail(call.described(cause));
		}
		TimeoutPolicy policy = call.operation().onTimeout();
		if (policy instanceof TimeoutPolicy.Skip) {
			return new Skip(call.operation().returnType());
		}
		// A group not led says so itself; a timeout is told as the caller sees it.
		Throwable told = (cause instanceof LockTimeoutException timeout) ? call.timeout(timeout) : cause;
		if (policy instanceof TimeoutPolicy.Fallback fallback && told instanceof LockTimeoutException timeout) {
			return new Fallback(fallback, timeout);
		}
		return new Fail(told);
	}

	/**
	 * Return what the call returns instead of the method's result, as the method would
	 * return it: a value of its return type (a stage for a stage method, a publisher or
	 * {@code null} for an empty one for a reactive method), or throw.
	 * @param invocation the call
	 * @return the value
	 * @throws Throwable the failure, or whatever the fallback threw
	 */
	@Nullable Object proceedInstead(MethodInvocation invocation) throws Throwable;

	/**
	 * Return the empty value of the method's return type without running it.
	 *
	 * @param returnType the shape of the method's return type
	 */
	record Skip(LockedReturnType returnType) implements NotAcquired {

		@Override
		public @Nullable Object proceedInstead(MethodInvocation invocation) {
			return this.returnType.emptyValue(invocation.getMethod());
		}

	}

	/**
	 * Call the fallback method with the call's arguments and, if it takes it, the timeout
	 * (before the continuation of a {@code suspend} function).
	 *
	 * @param fallback the fallback
	 * @param timeout the timeout, as the caller sees it
	 */
	record Fallback(TimeoutPolicy.Fallback fallback, LockTimeoutException timeout) implements NotAcquired {

		@Override
		public @Nullable Object proceedInstead(MethodInvocation invocation) throws Throwable {
			Object[] args = invocation.getArguments();
			if (this.fallback.passesException()) {
				Object[] withException = Arrays.copyOf(args, args.length + 1);
				if (KotlinDetector.isSuspendingFunction(this.fallback.method())) {
					// The continuation comes last: args, timeout, continuation.
					withException[args.length] = args[args.length - 1];
					withException[args.length - 1] = this.timeout;
				}
				else {
					withException[args.length] = this.timeout;
				}
				args = withException;
			}
			return AopUtils.invokeJoinpointUsingReflection(invocation.getThis(), this.fallback.method(), args);
		}

	}

	/**
	 * Fail the call.
	 *
	 * @param exception what the caller gets: the timeout as the caller sees it, the
	 * {@link NotLeaderException}, or the described failure
	 */
	record Fail(Throwable exception) implements NotAcquired {

		@Override
		public @Nullable Object proceedInstead(MethodInvocation invocation) throws Throwable {
			throw this.exception;
		}

	}

}
