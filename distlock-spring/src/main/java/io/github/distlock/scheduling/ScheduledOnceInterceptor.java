package io.github.distlock.scheduling;

import java.lang.reflect.UndeclaredThrowableException;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;

import io.github.distlock.core.JobFiring;
import io.github.distlock.core.ScheduledJobs;

/**
 * Fires a {@code @ScheduledOnce} method's job through {@link ScheduledJobs}: the call
 * runs the method only if it claims its slot. The firing's time is the clock's when the
 * call starts. Returns the method's result when it ran, {@code null} when it skipped. A
 * manual run's call passes without firing: that run holds the job's lock already. Its
 * advisor is ordered outside the lock advisors: a firing that skips takes no other lock.
 */
public final class ScheduledOnceInterceptor implements MethodInterceptor {

	/** Set on the thread of a catch-up run at start. */
	private static final ThreadLocal<@Nullable Boolean> catchingUp = new ThreadLocal<>();

	/**
	 * Set on the thread of a manual run ({@link ScheduledJobs#runNow(String)}) until its
	 * call of the method passes this interceptor.
	 */
	private static final ThreadLocal<@Nullable Boolean> runningNow = new ThreadLocal<>();

	private final ScheduledOnceOperationSource source;

	private final Supplier<ScheduledJobs> jobs;

	private final Supplier<Clock> clock;

	/**
	 * Create an interceptor.
	 * @param source where the operations come from
	 * @param jobs the jobs, asked for on the first firing
	 * @param clock the clock of the firings, asked for on each firing
	 */
	public ScheduledOnceInterceptor(ScheduledOnceOperationSource source, Supplier<ScheduledJobs> jobs,
			Supplier<Clock> clock) {
		this.source = source;
		this.jobs = jobs;
		this.clock = clock;
	}

	/**
	 * Run the action, whose call of a {@code @ScheduledOnce} method catches up on a
	 * missed slot instead of firing.
	 */
	static void catchUp(Runnable action) {
		catchingUp.set(Boolean.TRUE);
		try {
			action.run();
		}
		finally {
			catchingUp.remove();
		}
	}

	/**
	 * Call the method of a manual run: {@link ScheduledJobs#runNow(String)} holds the
	 * job's lock and records the run, so the call passes this interceptor without firing
	 * (the other advice of the method still applies). Only that call: a call of a
	 * {@code @ScheduledOnce} method within it fires as usual.
	 */
	static @Nullable Object runNow(Callable<?> call) throws Exception {
		runningNow.set(Boolean.TRUE);
		try {
			return call.call();
		}
		finally {
			runningNow.remove();
		}
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		if (runningNow.get() != null) {
			runningNow.remove();
			return invocation.proceed();
		}
		Object target = invocation.getThis();
		ScheduledOnceOperation operation = this.source.getOperation(invocation.getMethod(),
				(target != null) ? AopUtils.getTargetClass(target) : null);
		if (operation == null) {
			return invocation.proceed();
		}
		Object[] result = new Object[1];
		Callable<?> body = () -> {
			result[0] = proceed(invocation);
			return null;
		};
		Instant now = this.clock.get().instant().plus(operation.earlyFiring());
		ScheduledJobs jobs = this.jobs.get();
		JobFiring firing = (catchingUp.get() != null)
				? jobs.catchUp(operation.job(), now, operation.catchUpWithin(), body)
				: jobs.fire(operation.job(), now, body);
		return firing.ran() ? result[0] : null;
	}

	private static @Nullable Object proceed(MethodInvocation invocation) throws Exception {
		try {
			return invocation.proceed();
		}
		catch (Exception | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new UndeclaredThrowableException(ex);
		}
	}

}
