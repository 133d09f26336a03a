package io.github.distlock.interceptor;

import java.lang.reflect.Method;

/**
 * What a lock operation does when its lock was not acquired within the wait time.
 */
public sealed interface TimeoutPolicy {

	/** Throw the timeout exception. */
	TimeoutPolicy THROW = new Throw();

	/** Return an empty value without running the method. */
	TimeoutPolicy SKIP = new Skip();

	/** Throw a {@link io.github.distlock.core.LockTimeoutException}. */
	record Throw() implements TimeoutPolicy {
	}

	/** Return {@code null}, {@code Optional.empty()} or the primitive default. */
	record Skip() implements TimeoutPolicy {
	}

	/**
	 * Call another method of the same target with the same arguments.
	 *
	 * @param method the fallback method
	 * @param passesException whether the timeout exception is passed as an extra last
	 * argument
	 */
	record Fallback(Method method, boolean passesException) implements TimeoutPolicy {
	}

}
