package io.github.distlock.migration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/migrating-from-spring-integration.md: an old instance that locks with Spring
 * Integration's {@link ZookeeperLockRegistry} built with the root
 * {@code /<namespace>/mutex} and a new instance that locks with distlock exclude each
 * other on the same keys, each in its own ZooKeeper session, in both directions.
 */
class SpringIntegrationMixedFleetTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private CuratorFramework oldInstance;

	private ZookeeperLockRegistry registry;

	private CuratorLocks newInstance;

	@BeforeEach
	void startBothVersions() {
		this.oldInstance = CuratorFrameworkFactory.newClient(this.zookeeper.connectString(),
				new ExponentialBackoffRetry(100, 3));
		this.oldInstance.start();
		this.registry = new ZookeeperLockRegistry(this.oldInstance,
				"/" + this.zookeeper.options().namespace() + "/mutex");
		this.newInstance = this.zookeeper.newNode();
	}

	@AfterEach
	void stopTheOldInstance() throws Exception {
		this.registry.destroy();
		this.oldInstance.close();
	}

	@Test
	void registryHolderExcludesDistlockAndTheOtherWayRound() throws Exception {
		Lock old = this.registry.obtain("orders/42");
		assertThat(old.tryLock(5, TimeUnit.SECONDS)).isTrue();
		try {
			assertThat(this.newInstance.mutex(LockPath.of("orders", "42")).tryAcquire(Duration.ofMillis(300)))
				.isEmpty();
		}
		finally {
			old.unlock();
		}
		try (LockHandle handle = this.newInstance.mutex(LockPath.of("orders", "42")).acquire(Duration.ofSeconds(5))) {
			ExecutorService other = Executors.newSingleThreadExecutor();
			try {
				assertThat(other.submit(() -> this.registry.obtain("orders/42").tryLock(300, TimeUnit.MILLISECONDS))
					.get(10, TimeUnit.SECONDS)).isFalse();
			}
			finally {
				other.shutdownNow();
			}
		}
		assertThat(old.tryLock(5, TimeUnit.SECONDS)).isTrue();
		old.unlock();
	}

	@Test
	void oldAndNewInstancesTakingTurnsNeverOverlap() throws Exception {
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		AtomicInteger sections = new AtomicInteger();
		Runnable section = () -> {
			most.accumulateAndGet(inside.incrementAndGet(), Math::max);
			Thread.yield();
			inside.decrementAndGet();
			sections.incrementAndGet();
		};
		ExecutorService threads = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int t = 0; t < 2; t++) {
				workers.add(threads.submit(() -> {
					for (int i = 0; i < 40; i++) {
						Lock lock = this.registry.obtain("hot");
						assertThat(lock.tryLock(20, TimeUnit.SECONDS)).isTrue();
						try {
							section.run();
						}
						finally {
							lock.unlock();
						}
					}
					return null;
				}));
				workers.add(threads.submit(() -> {
					for (int i = 0; i < 40; i++) {
						this.newInstance.mutex("hot").invoke(Duration.ofSeconds(20), section);
					}
					return null;
				}));
			}
			for (Future<?> worker : workers) {
				worker.get(2, TimeUnit.MINUTES);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(sections).hasValue(160);
		assertThat(most).hasValue(1);
	}

}
