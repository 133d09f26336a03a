package io.github.distlock.benchmarks;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import org.apache.curator.framework.CuratorFramework;
import org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry;

/**
 * Spring Integration's {@link ZookeeperLockRegistry}: {@code obtain(key)} for each
 * acquisition (the registry caches its locks),
 * {@code tryLock(time, unit)}/{@code unlock}.
 */
final class SpringIntegrationContender implements MutexContender {

	static final String NAME = "spring-integration";

	private final CuratorFramework client = BenchmarkClients.start();

	private final ZookeeperLockRegistry registry = new ZookeeperLockRegistry(this.client, "/si");

	@Override
	public void cycle(String key) throws Exception {
		Lock lock = this.registry.obtain(key);
		if (!lock.tryLock(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
			throw MutexContender.notAcquired(key);
		}
		lock.unlock();
	}

	/**
	 * Not supported: the registry's {@code tryLock()} waits up to one second, and
	 * {@code tryLock(0, unit)} returns {@code false} without asking ZooKeeper, even for a
	 * free lock (its acquisition runs on an executor and a zero wait does not wait for
	 * it).
	 */
	@Override
	public boolean tryOnce(String key) {
		throw new UnsupportedOperationException("Spring Integration's registry has no try-once");
	}

	@Override
	public void hold(String key) throws Exception {
		if (!this.registry.obtain(key).tryLock(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
			throw MutexContender.notAcquired(key);
		}
	}

	@Override
	public CuratorFramework client() {
		return this.client;
	}

	@Override
	public void close() {
		this.registry.destroy();
		this.client.close();
	}

}
