package io.github.distlock.benchmarks;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;

/**
 * Bean whose methods do nothing but under a {@code @DistributedLock}: the cost measured
 * is the annotation's.
 */
public class AnnotatedLocks {

	/**
	 * Run under the lock of the key, waiting as long as {@link MutexContender#WAIT}.
	 * @param key the lock key, one path segment
	 */
	@DistributedLock(path = "#{#p0}", waitTime = "30s")
	public void cycle(String key) {
	}

	/**
	 * Run under the lock of the key if it is free now.
	 * @param key the lock key, one path segment
	 * @return {@code true} if it ran, {@code false} if the lock was held
	 */
	@DistributedLock(path = "#{#p0}", waitTime = "0", onTimeout = OnTimeout.SKIP)
	public boolean tryOnce(String key) {
		return true;
	}

}
