package io.github.distlock.benchmarks;

import java.util.List;

import reactor.core.publisher.Mono;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.Semaphore;
import io.github.distlock.annotation.WriteLock;

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
	 * A reactive method under the lock of the key: each subscription waits for the lock
	 * without holding a thread, and holds it until the returned publisher completes.
	 * @param key the lock key, one path segment
	 * @return an empty publisher
	 */
	@DistributedLock(path = "#{#p0}", waitTime = "30s")
	public Mono<Void> cycleMono(String key) {
		return Mono.empty();
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

	/**
	 * Run under the read side of the key's read/write lock.
	 * @param key the lock key, one path segment
	 */
	@ReadLock(path = "#{#p0}", waitTime = "30s")
	public void read(String key) {
	}

	/**
	 * Run under the write side of the key's read/write lock.
	 * @param key the lock key, one path segment
	 */
	@WriteLock(path = "#{#p0}", waitTime = "30s")
	public void write(String key) {
	}

	/**
	 * Run under one of the key's {@value SemaphoreBenchmark#PERMITS} permits.
	 * @param key the semaphore key, one path segment
	 */
	@Semaphore(path = "#{#p0}", permits = SemaphoreBenchmark.PERMITS, waitTime = "30s")
	public void permit(String key) {
	}

	/**
	 * Run under the locks of all keys at once (a multi-lock).
	 * @param keys the lock keys, one path segment each
	 */
	@DistributedLock(path = "#{#p0}", waitTime = "30s")
	public void all(List<String> keys) {
	}

}
