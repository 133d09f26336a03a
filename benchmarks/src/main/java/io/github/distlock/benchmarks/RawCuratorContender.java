package io.github.distlock.benchmarks;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;

/**
 * Curator's {@link InterProcessMutex} used by hand as a careful user would: one instance
 * per path, created on first use and shared by all threads of the client.
 */
final class RawCuratorContender implements MutexContender {

	static final String NAME = "raw-curator";

	private final CuratorFramework client = BenchmarkClients.start();

	private final Map<String, InterProcessMutex> mutexes = new ConcurrentHashMap<>();

	private InterProcessMutex mutex(String key) {
		return this.mutexes.computeIfAbsent(key, (k) -> new InterProcessMutex(this.client, "/raw/" + k));
	}

	@Override
	public void cycle(String key) throws Exception {
		InterProcessMutex mutex = mutex(key);
		if (!mutex.acquire(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
			throw MutexContender.notAcquired(key);
		}
		mutex.release();
	}

	@Override
	public boolean tryOnce(String key) throws Exception {
		InterProcessMutex mutex = mutex(key);
		if (!mutex.acquire(0, TimeUnit.MILLISECONDS)) {
			return false;
		}
		mutex.release();
		return true;
	}

	@Override
	public void hold(String key) throws Exception {
		if (!mutex(key).acquire(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
			throw MutexContender.notAcquired(key);
		}
	}

	@Override
	public CuratorFramework client() {
		return this.client;
	}

	@Override
	public void close() {
		this.client.close();
	}

}
