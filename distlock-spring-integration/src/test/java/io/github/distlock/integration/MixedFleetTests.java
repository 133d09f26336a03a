package io.github.distlock.integration;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry;

import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fleet during a move: an old instance with Spring Integration's own
 * {@link ZookeeperLockRegistry} (spring-integration-zookeeper 7.0.5, loaded beside the
 * spring-integration-core 7.1.x distlock is built on) and a new one with a
 * {@link DistlockLockRegistry}, each in its own ZooKeeper session, on the same root and
 * keys: they exclude each other both ways. The old registry's root is the new one's node
 * root, {@code /<namespace>/mutex/<root>}.
 */
class MixedFleetTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	private ZookeeperLockRegistry oldInstance;

	private DistlockLockRegistry newInstance;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@BeforeEach
	void startBothVersions() {
		CuratorFramework client = this.zookeeper.nodes()
			.client(this.zookeeper.connectString(), this.zookeeper.options().withNamespace(null));
		this.oldInstance = new ZookeeperLockRegistry(client,
				"/" + Faults.NAMESPACE + "/mutex/" + DistlockLockRegistry.DEFAULT_ROOT);
		this.zookeeper.nodes().register(this.oldInstance::destroy);
		this.newInstance = new DistlockLockRegistry(this.zookeeper.newNode());
	}

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@ParameterizedTest
	@ValueSource(strings = { "orders", "orders:42", "orders/42", "3f2b8c1e-5d4a-4e8b-9c7d-1a2b3c4d5e6f" })
	void registryHolderExcludesDistlockAndTheOtherWayRound(String key) throws Exception {
		Lock old = this.oldInstance.obtain(key);
		assertThat(old.tryLock(5, TimeUnit.SECONDS)).isTrue();
		try {
			assertThat(tryAndReleaseOnAnotherThread(this.newInstance.obtain(key), 300)).isFalse();
		}
		finally {
			old.unlock();
		}
		Lock fresh = this.newInstance.obtain(key);
		assertThat(fresh.tryLock(5, TimeUnit.SECONDS)).isTrue();
		try {
			assertThat(tryAndReleaseOnAnotherThread(this.oldInstance.obtain(key), 300)).isFalse();
		}
		finally {
			fresh.unlock();
		}
		assertThat(tryAndReleaseOnAnotherThread(old, 5000)).as("free again for the old instance").isTrue();
	}

	@Test
	void oldAndNewInstancesTakingTurnsNeverOverlap() throws Exception {
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		AtomicInteger sections = new AtomicInteger();
		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < 2; t++) {
			for (Object registry : List.of(this.oldInstance, this.newInstance)) {
				workers.add(this.threads.submit(() -> {
					for (int i = 0; i < 25; i++) {
						Lock lock = (registry instanceof ZookeeperLockRegistry zk) ? zk.obtain("hot")
								: ((DistlockLockRegistry) registry).obtain("hot");
						assertThat(lock.tryLock(20, TimeUnit.SECONDS)).isTrue();
						try {
							most.accumulateAndGet(inside.incrementAndGet(), Math::max);
							Thread.yield();
							inside.decrementAndGet();
							sections.incrementAndGet();
						}
						finally {
							lock.unlock();
						}
					}
					return null;
				}));
			}
		}
		for (Future<?> worker : workers) {
			worker.get(2, TimeUnit.MINUTES);
		}
		assertThat(sections).hasValue(100);
		assertThat(most).hasValue(1);
	}

	private boolean tryAndReleaseOnAnotherThread(Lock lock, long waitMillis) throws Exception {
		return this.threads.submit(() -> DistlockLockRegistryTests.tryAndRelease(lock, waitMillis))
			.get(30, TimeUnit.SECONDS);
	}

}
