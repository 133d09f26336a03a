package io.github.distlock.core;

import java.time.Duration;

/**
 * Entry point of the programmatic API, and the bean applications inject. Every lock
 * annotation goes through this interface too, so what an annotation does can be done
 * without it.
 *
 * <pre class="code">
 * try (LockHandle lock = locks.mutex(LockPath.of("orders", orderId)).acquire(Duration.ofSeconds(2))) {
 *     store.write(order, lock.fencingToken());
 * }
 * </pre>
 *
 * Paths given as strings are literal paths checked by {@link LockPath#parse(String)};
 * build a path from untrusted values with {@link LockPath#of(String, String...)} so each
 * value stays one escaped segment.
 */
public interface Locks {

	/**
	 * Wait time meaning "wait as long as it takes". Any negative duration means the same.
	 */
	Duration WAIT_FOREVER = Duration.ofMillis(-1);

	/**
	 * Return the reentrant, FIFO-fair mutex at the given path: a thread that holds it may
	 * acquire it again (and must release it as often).
	 * @param path the lock path
	 * @return the lock
	 */
	ClusterLock mutex(LockPath path);

	/**
	 * Return the reentrant mutex at the given literal path.
	 * @param path the literal lock path, such as {@code reports/daily}
	 * @return the lock
	 * @see #mutex(LockPath)
	 */
	default ClusterLock mutex(String path) {
		return mutex(LockPath.parse(path));
	}

	/**
	 * Return the non-reentrant mutex at the given path: a thread that holds it and asks
	 * for it again gets a {@link LockReentryException} at once. Its handle may be closed
	 * by another thread than the one that acquired it.
	 * @param path the lock path
	 * @return the lock
	 */
	ClusterLock nonReentrantMutex(LockPath path);

	/**
	 * Return the non-reentrant mutex at the given literal path.
	 * @param path the literal lock path
	 * @return the lock
	 * @see #nonReentrantMutex(LockPath)
	 */
	default ClusterLock nonReentrantMutex(String path) {
		return nonReentrantMutex(LockPath.parse(path));
	}

	/**
	 * Wait time used when a caller does not give one ({@code distlock.lock.wait-time}).
	 * @return the default wait time; negative means wait forever
	 */
	Duration defaultWaitTime();

}
