package io.github.distlock.migration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/migrating-from-spring-integration.md: an old instance that locks with Spring
 * Integration's {@link ZookeeperLockRegistry} built with the root
 * {@code /<namespace>/mutex/SpringIntegration-LockRegistry} and a new instance that locks
 * with distlock on the paths the page maps its calls to exclude each other, each in its
 * own ZooKeeper session, in both directions: {@code registry.obtain(key)} is
 * {@code locks.mutex(LockPath.of("SpringIntegration-LockRegistry", key))} and
 * {@code @DistributedLock("SpringIntegration-LockRegistry/#{#key}")};
 * {@code registry.obtain("orders/" + id)} is
 * {@code locks.mutex(LockPath.of("SpringIntegration-LockRegistry/orders", id))} and
 * {@code @DistributedLock("SpringIntegration-LockRegistry/orders/#{#id}")}.
 */
class SpringIntegrationMixedFleetTests {

	private static final String ROOT = "SpringIntegration-LockRegistry";

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	private static KeyService keys;

	private static OrderService orders;

	private CuratorFramework oldInstance;

	private ZookeeperLockRegistry registry;

	private CuratorLocks newInstance;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@BeforeAll
	static void startTheNewVersionsServices() {
		// Two applications: in one, the paths <root>/#{#key} and <root>/orders/#{#id}
		// would nest, which distlock refuses at startup.
		keys = contexts.start(KeyService.class).getBean(KeyService.class);
		orders = contexts.start(OrderService.class).getBean(OrderService.class);
	}

	@BeforeEach
	void startBothVersions() {
		this.oldInstance = CuratorFrameworkFactory.newClient(contexts.connectString(),
				new ExponentialBackoffRetry(100, 3));
		this.oldInstance.start();
		this.registry = new ZookeeperLockRegistry(this.oldInstance,
				"/" + contexts.zookeeper().options().namespace() + "/mutex/" + ROOT);
		this.newInstance = contexts.zookeeper().newNode();
	}

	@AfterEach
	void stopTheOldInstance() throws Exception {
		this.threads.shutdownNow();
		this.registry.destroy();
		this.oldInstance.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { "orders:42", "invoice-7", "user@example.com", "a b+c", "Z\u00fcrich" })
	void registryKeyAndDistlockMutexOfThatKeyUnderTheRootExcludeEachOther(String key) throws Exception {
		assertExcludeEachOther(key, this.newInstance.mutex(LockPath.of(ROOT, key)));
	}

	@ParameterizedTest
	@ValueSource(strings = { "42", "eu:42", "3f2b8c1e-5d4a-4e8b-9c7d-1a2b3c4d5e6f" })
	void registryKeyOfOrdersAndDistlockMutexOfTheIdUnderRootAndOrdersExcludeEachOther(String id) throws Exception {
		assertExcludeEachOther("orders/" + id, this.newInstance.mutex(LockPath.of(ROOT + "/orders", id)));
	}

	@Test
	void registryKeyAndDistlocksAnnotationOnTheKeyUnderTheRootExcludeEachOther() throws Exception {
		Lock old = this.registry.obtain("orders:42");
		assertThat(old.tryLock(5, TimeUnit.SECONDS)).isTrue();
		try {
			assertThat(keys.tryKey("orders:42")).as("distlock's annotation while the registry holds").isFalse();
		}
		finally {
			old.unlock();
		}
		assertThat(keys.whileHoldingKey("orders:42", () -> tryOnAnotherThread("orders:42", 300)))
			.as("the registry while distlock's annotation holds")
			.isFalse();
		assertThat(keys.tryKey("orders:42")).isTrue();
	}

	@Test
	void registryKeyOfOrdersAndDistlocksAnnotationOnTheIdExcludeEachOther() throws Exception {
		Lock old = this.registry.obtain("orders/eu:42");
		assertThat(old.tryLock(5, TimeUnit.SECONDS)).isTrue();
		try {
			assertThat(orders.tryOrder("eu:42")).as("distlock's annotation while the registry holds").isFalse();
		}
		finally {
			old.unlock();
		}
		assertThat(orders.whileHoldingOrder("eu:42", () -> tryOnAnotherThread("orders/eu:42", 300)))
			.as("the registry while distlock's annotation holds")
			.isFalse();
		assertThat(orders.tryOrder("eu:42")).isTrue();
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
		List<Future<?>> workers = new ArrayList<>();
		for (int t = 0; t < 2; t++) {
			workers.add(this.threads.submit(() -> {
				for (int i = 0; i < 40; i++) {
					Lock lock = this.registry.obtain("hot:1");
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
			workers.add(this.threads.submit(() -> {
				for (int i = 0; i < 40; i++) {
					this.newInstance.mutex(LockPath.of(ROOT, "hot:1")).invoke(Duration.ofSeconds(20), section);
				}
				return null;
			}));
		}
		for (Future<?> worker : workers) {
			worker.get(2, TimeUnit.MINUTES);
		}
		assertThat(sections).hasValue(160);
		assertThat(most).hasValue(1);
	}

	private void assertExcludeEachOther(String key, ClusterLock mapped) throws Exception {
		Lock old = this.registry.obtain(key);
		assertThat(old.tryLock(5, TimeUnit.SECONDS)).isTrue();
		try {
			assertThat(mapped.tryAcquire(Duration.ofMillis(300))).as("distlock while the registry holds %s", key)
				.isEmpty();
		}
		finally {
			old.unlock();
		}
		try (LockHandle handle = mapped.acquire(Duration.ofSeconds(5))) {
			assertThat(tryOnAnotherThread(key, 300)).as("the registry while distlock holds %s", key).isFalse();
		}
		assertThat(tryOnAnotherThread(key, 5000)).as("free again for the registry").isTrue();
	}

	/**
	 * Try the registry's lock of the key on another thread (its locks are per thread).
	 */
	private boolean tryOnAnotherThread(String key, long waitMillis) throws Exception {
		return this.threads.submit(() -> {
			Lock lock = this.registry.obtain(key);
			if (!lock.tryLock(waitMillis, TimeUnit.MILLISECONDS)) {
				return false;
			}
			lock.unlock();
			return true;
		}).get(30, TimeUnit.SECONDS);
	}

	/** The new version's code on registry keys, on distlock's annotation. */
	static class KeyService {

		@DistributedLock(value = ROOT + "/#{#key}", waitTime = "300ms", onTimeout = OnTimeout.SKIP)
		public boolean tryKey(String key) {
			return true;
		}

		@DistributedLock(value = ROOT + "/#{#key}", waitTime = "5s")
		public <T> T whileHoldingKey(String key, Callable<T> action) throws Exception {
			return action.call();
		}

	}

	/** The new version's code on orders, on distlock's annotation. */
	static class OrderService {

		@DistributedLock(value = ROOT + "/orders/#{#id}", waitTime = "300ms", onTimeout = OnTimeout.SKIP)
		public boolean tryOrder(String id) {
			return true;
		}

		@DistributedLock(value = ROOT + "/orders/#{#id}", waitTime = "5s")
		public <T> T whileHoldingOrder(String id, Callable<T> action) throws Exception {
			return action.call();
		}

	}

}
