package io.github.distlock.core;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Something a holder acquires within a wait time and gets a {@link Handle} for: one lock
 * ({@link ClusterLock}) or a set of locks taken together ({@link MultiLock}).
 * <p>
 * Wait times: {@link Duration#ZERO} tries once, a negative duration waits forever. Every
 * acquisition honours its wait time, also while ZooKeeper is unreachable.
 *
 * @param <H> the type of handle an acquisition gives
 */
public interface Acquirable<H extends Handle> {

	/**
	 * Acquire, waiting at most the given time.
	 * @param waitTime how long to wait; zero tries once, negative waits forever
	 * @return the handle of what is now held
	 * @throws LockTimeoutException if it was not acquired in time, also when ZooKeeper
	 * was unreachable; nothing is then held
	 * @throws LockAcquisitionException if ZooKeeper failed or the thread was interrupted
	 * (the acquisition is then abandoned and the thread's interrupt flag stays set)
	 */
	H acquire(Duration waitTime);

	/**
	 * Start acquiring without waiting: the future completes, on the
	 * {@linkplain Locks#completionExecutor() completion executor} of the {@link Locks}
	 * that made this (never on a ZooKeeper thread), with the handle once everything is
	 * held, or with a {@link LockTimeoutException} once the wait time is over. Cancelling
	 * the future abandons the acquisition and leaves no lock node.
	 * @param waitTime how long to wait; zero tries once, negative waits forever
	 * @return the future handle
	 */
	CompletableFuture<H> acquireAsync(Duration waitTime);

	/**
	 * Start acquiring for the given holder without waiting, as
	 * {@link #acquireAsync(Duration)} does, re-entering what the holder holds already.
	 * @param waitTime how long to wait; zero tries once, negative waits forever
	 * @param scope who holds it, for reentrancy and {@link LockContext}
	 * @return the future handle
	 */
	CompletableFuture<H> acquireAsync(Duration waitTime, LockScope scope);

	/**
	 * Acquire within the given time, or return an empty optional.
	 * @param waitTime how long to wait; zero tries once, negative waits forever
	 * @return the handle, or empty if it was not acquired in time
	 * @throws LockAcquisitionException if ZooKeeper failed or the thread was interrupted
	 */
	default Optional<H> tryAcquire(Duration waitTime) {
		try {
			return Optional.of(acquire(waitTime));
		}
		catch (LockTimeoutException ex) {
			return Optional.empty();
		}
	}

	/**
	 * Run the action while holding, and release afterwards. For an action that throws no
	 * checked exception, {@link #invoke(Duration, Supplier)} and
	 * {@link #invoke(Duration, Runnable)} spare the caller the {@code throws Exception}.
	 * @param <T> the result type
	 * @param waitTime how long to wait
	 * @param action the action to run while holding
	 * @return the action's result
	 * @throws LockTimeoutException if it was not acquired in time (the action did not
	 * run)
	 * @throws Exception whatever the action threw
	 */
	default <T> T execute(Duration waitTime, Callable<T> action) throws Exception {
		try (H handle = acquire(waitTime)) {
			return action.call();
		}
	}

	/**
	 * Return what the action supplies, computed while holding; released afterwards. For
	 * actions that throw no checked exception, so that the caller need not handle
	 * {@code Exception} (the shape of Spring's {@code RetryOperations.invoke}).
	 * @param <T> the result type
	 * @param waitTime how long to wait; zero tries once, negative waits forever
	 * @param action the action to run while holding
	 * @return the action's result
	 * @throws LockTimeoutException if it was not acquired in time (the action did not
	 * run)
	 */
	default <T> T invoke(Duration waitTime, Supplier<T> action) {
		try (H handle = acquire(waitTime)) {
			return action.get();
		}
	}

	/**
	 * Run the action while holding, and release afterwards. For actions that return
	 * nothing and throw no checked exception.
	 * @param waitTime how long to wait; zero tries once, negative waits forever
	 * @param action the action to run while holding
	 * @throws LockTimeoutException if it was not acquired in time (the action did not
	 * run)
	 */
	default void invoke(Duration waitTime, Runnable action) {
		try (H handle = acquire(waitTime)) {
			action.run();
		}
	}

}
