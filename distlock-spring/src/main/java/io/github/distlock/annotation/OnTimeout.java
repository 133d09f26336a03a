package io.github.distlock.annotation;

/**
 * What a lock annotation does when its lock is not acquired within the wait time. In no
 * case does the annotated method run without its lock.
 */
public enum OnTimeout {

	/**
	 * Throw a {@link io.github.distlock.core.LockTimeoutException} naming the method, the
	 * path template and the resolved path.
	 */
	THROW,

	/**
	 * Do not run the method and return {@code null}, {@code Optional.empty()} for an
	 * {@link java.util.Optional}, or the default value of a primitive return type
	 * ({@code 0}, {@code false}, {@code '\0'}).
	 */
	SKIP

}
