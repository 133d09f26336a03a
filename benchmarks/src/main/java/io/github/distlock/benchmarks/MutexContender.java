package io.github.distlock.benchmarks;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;

import io.github.distlock.core.LockEventListener;

/**
 * One library's way of taking and releasing an exclusive lock by key, on its own
 * ZooKeeper session. Implementations are used by many threads at once.
 */
interface MutexContender extends AutoCloseable {

	/** How long a cycle waits for the lock before it fails the benchmark. */
	Duration WAIT = Duration.ofSeconds(30);

	/**
	 * Acquire the lock of the key, waiting up to {@link #WAIT}, and release it.
	 * @param key a lock key made of letters and digits
	 */
	void cycle(String key) throws Exception;

	/**
	 * Try the lock of the key once, without waiting; release it if acquired.
	 * @param key a lock key made of letters and digits
	 * @return whether the lock was acquired
	 */
	boolean tryOnce(String key) throws Exception;

	/**
	 * Acquire the lock of the key and keep it until this contender is closed (which ends
	 * its session or releases it).
	 * @param key a lock key made of letters and digits
	 */
	void hold(String key) throws Exception;

	/** The client of this contender's session. */
	CuratorFramework client();

	/**
	 * Wait until ZooKeeper has answered every request this contender's session sent so
	 * far, also those whose answer the contender did not wait for (distlock's release):
	 * one read on the same session, which ZooKeeper answers after everything the session
	 * sent before it. One request; the paired mode runs it outside the timed section.
	 */
	default void settle() throws Exception {
		client().getZookeeperClient().getZooKeeper().exists("/", false);
	}

	/**
	 * Follow this contender's acquisitions, if it is distlock (for the cycle timeline);
	 * other contenders ignore it.
	 */
	default void addEventListener(LockEventListener listener) {
	}

	/** Contender names, as used by the {@code contender} benchmark parameter. */
	static MutexContender create(String name) {
		return switch (name) {
			case RawCuratorContender.NAME -> new RawCuratorContender();
			case DistlockContender.NAME -> new DistlockContender();
			case AnnotationContender.NAME -> new AnnotationContender();
			case SpringIntegrationContender.NAME -> new SpringIntegrationContender();
			case ShedLockContender.NAME -> new ShedLockContender();
			default -> throw new IllegalArgumentException("Unknown contender '" + name + "'");
		};
	}

	static IllegalStateException notAcquired(String key) {
		return new IllegalStateException("Lock '" + key + "' was not acquired within " + WAIT);
	}

}
