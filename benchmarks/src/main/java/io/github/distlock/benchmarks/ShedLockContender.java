package io.github.distlock.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.zookeeper.curator.ZookeeperCuratorLockProvider;
import org.apache.curator.framework.CuratorFramework;

/**
 * ShedLock's ZooKeeper provider. ShedLock is a scheduler lock, not a mutex: a lock is a
 * persistent node holding a "locked until" time ({@code lockAtMostFor}); {@code lock}
 * never waits, it answers at once whether the caller may run; {@code unlock} rewrites the
 * time. So it only takes part in the scenarios without waiting.
 */
final class ShedLockContender implements MutexContender {

	static final String NAME = "shedlock";

	private static final Duration LOCK_AT_MOST_FOR = Duration.ofMinutes(10);

	private final CuratorFramework client = BenchmarkClients.start();

	private final ZookeeperCuratorLockProvider provider = new ZookeeperCuratorLockProvider(this.client, "/shedlock");

	private final List<SimpleLock> held = new ArrayList<>();

	private Optional<SimpleLock> lock(String key) {
		return this.provider.lock(new LockConfiguration(Instant.now(), key, LOCK_AT_MOST_FOR, Duration.ZERO));
	}

	@Override
	public void cycle(String key) {
		lock(key).orElseThrow(() -> new IllegalStateException("ShedLock '" + key + "' is held")).unlock();
	}

	@Override
	public boolean tryOnce(String key) {
		Optional<SimpleLock> lock = lock(key);
		lock.ifPresent(SimpleLock::unlock);
		return lock.isPresent();
	}

	@Override
	public synchronized void hold(String key) {
		this.held.add(lock(key).orElseThrow(() -> new IllegalStateException("ShedLock '" + key + "' is held")));
	}

	@Override
	public CuratorFramework client() {
		return this.client;
	}

	@Override
	public synchronized void close() {
		// Its nodes are persistent: release what is held so that later runs find it free.
		this.held.forEach(SimpleLock::unlock);
		this.client.close();
	}

}
