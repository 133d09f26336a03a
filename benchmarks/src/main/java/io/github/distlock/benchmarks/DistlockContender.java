package io.github.distlock.benchmarks;

import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockEventListener;
import io.github.distlock.curator.CuratorLocks;

/**
 * distlock's programmatic API, {@link CuratorLocks}, used as documented: a
 * {@code ClusterLock} looked up by path for each acquisition, released by closing its
 * handle.
 */
final class DistlockContender implements MutexContender {

	static final String NAME = "distlock";

	private final CuratorLocks locks = CuratorLocks.builder(BenchmarkClients.start())
		.defaultWaitTime(WAIT)
		.applicationName("benchmarks")
		.build();

	CuratorLocks locks() {
		return this.locks;
	}

	@Override
	public void cycle(String key) {
		try (LockHandle handle = this.locks.mutex(key).acquire(WAIT)) {
			// nothing to do under the lock
		}
	}

	@Override
	public boolean tryOnce(String key) {
		Optional<LockHandle> handle = this.locks.mutex(key).tryAcquire(java.time.Duration.ZERO);
		handle.ifPresent(LockHandle::close);
		return handle.isPresent();
	}

	@Override
	public void hold(String key) {
		this.locks.mutex(key).acquire(WAIT);
	}

	@Override
	public CuratorFramework client() {
		return this.locks.client();
	}

	@Override
	public void addEventListener(LockEventListener listener) {
		this.locks.addEventListener(listener);
	}

	@Override
	public void close() {
		this.locks.close();
		this.locks.client().close();
	}

}
