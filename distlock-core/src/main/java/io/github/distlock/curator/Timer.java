package io.github.distlock.curator;

/**
 * Runs short actions at given instants, as the engine's parts see it. Implemented by
 * {@link DeadlineTimer}.
 */
interface Timer {

	/**
	 * Run an action at an instant of {@link System#nanoTime()}.
	 * @param deadlineNanos the instant
	 * @param action what to run; it must not block
	 * @return the scheduled action, to cancel it
	 */
	Scheduled schedule(long deadlineNanos, Runnable action);

	/** An action scheduled on the timer. */
	interface Scheduled {

		/** Do not run the action, if it has not run yet. */
		void cancel();

	}

}
