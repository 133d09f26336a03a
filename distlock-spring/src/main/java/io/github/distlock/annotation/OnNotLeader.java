package io.github.distlock.annotation;

/**
 * What a {@link LeaderOnly @LeaderOnly} method does when it is called on an instance that
 * does not lead its group. In no case does the method run.
 */
public enum OnNotLeader {

	/**
	 * Do not run the method and return the empty value of its return type, as
	 * {@link OnTimeout#SKIP} does: {@code null}, {@code Optional.empty()}, the default of
	 * a primitive, an empty {@code Mono}/{@code Flux}, a stage completed with
	 * {@code null}.
	 */
	SKIP,

	/**
	 * Throw a {@link io.github.distlock.core.NotLeaderException} (a failed stage or an
	 * error signal for asynchronous methods).
	 */
	THROW

}
