package io.github.distlock.migration;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessLock;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.annotation.WriteLock;
import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/migrating-from-curator.md: an old instance on raw Curator recipes at
 * {@code /<namespace>/<kind>/<path>} (a client without a namespace of its own) and a new
 * instance on distlock exclude each other on the nodes the page names, each in its own
 * ZooKeeper session, in both directions: {@code new InterProcessMutex(client,
 * "/<namespace>/mutex/orders/" + id)} is {@code locks.mutex(LockPath.of("orders", id))}
 * and {@code @DistributedLock("orders/#{#id}")}, also for an id such as {@code eu:42};
 * {@code InterProcessReadWriteLock} at {@code /<namespace>/rw/catalog/<sku>} is
 * {@code @WriteLock("catalog/#{#sku}")}.
 */
class CuratorMixedFleetTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	private static OrderService service;

	private CuratorFramework oldInstance;

	private CuratorLocks newInstance;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@BeforeAll
	static void startTheNewVersionsService() {
		service = contexts.start(OrderService.class).getBean(OrderService.class);
	}

	@BeforeEach
	void startBothVersions() {
		this.oldInstance = contexts.zookeeper()
			.nodes()
			.client(contexts.connectString(), contexts.zookeeper().options().withNamespace(null));
		this.newInstance = contexts.zookeeper().newNode();
	}

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@ParameterizedTest
	@ValueSource(strings = { "42", "eu:42", "user@example.com", "Z\u00fcrich" })
	void rawMutexAtTheDocumentedNodeAndDistlocksMutexExcludeEachOther(String id) throws Exception {
		InterProcessMutex raw = new InterProcessMutex(this.oldInstance, node("mutex", "orders/" + id));
		assertExcludeEachOther(raw, this.newInstance.mutex(LockPath.of("orders", id)));
	}

	@Test
	void rawMutexAtTheDocumentedNodeAndDistlocksAnnotationExcludeEachOther() throws Exception {
		InterProcessMutex raw = new InterProcessMutex(this.oldInstance, node("mutex", "orders/eu:42"));
		assertThat(raw.acquire(5, TimeUnit.SECONDS)).isTrue();
		try {
			assertThat(service.tryOrder("eu:42")).as("distlock's annotation while the raw mutex holds").isFalse();
		}
		finally {
			raw.release();
		}
		assertThat(service.whileHoldingOrder("eu:42", () -> tryOnAnotherThread(raw, 300)))
			.as("the raw mutex while distlock's annotation holds")
			.isFalse();
		assertThat(service.tryOrder("eu:42")).isTrue();
	}

	@Test
	void rawWriteLockAtTheDocumentedNodeAndDistlocksWriteLockExcludeEachOther() throws Exception {
		InterProcessReadWriteLock raw = new InterProcessReadWriteLock(this.oldInstance, node("rw", "catalog/sku:7"));
		assertThat(raw.writeLock().acquire(5, TimeUnit.SECONDS)).isTrue();
		try {
			assertThat(service.tryWriteSku("sku:7")).as("distlock's write lock while the raw one holds").isFalse();
		}
		finally {
			raw.writeLock().release();
		}
		assertThat(service.whileWritingSku("sku:7", () -> tryOnAnotherThread(raw.writeLock(), 300)))
			.as("the raw write lock while distlock's holds")
			.isFalse();
	}

	private String node(String kind, String path) {
		return "/" + contexts.zookeeper().options().namespace() + "/" + kind + "/" + path;
	}

	private void assertExcludeEachOther(InterProcessMutex raw, ClusterLock mapped) throws Exception {
		assertThat(raw.acquire(5, TimeUnit.SECONDS)).isTrue();
		try {
			assertThat(mapped.tryAcquire(Duration.ofMillis(300))).as("distlock while the raw mutex holds").isEmpty();
		}
		finally {
			raw.release();
		}
		try (LockHandle handle = mapped.acquire(Duration.ofSeconds(5))) {
			assertThat(tryOnAnotherThread(raw, 300)).as("the raw mutex while distlock holds").isFalse();
		}
		assertThat(tryOnAnotherThread(raw, 5000)).as("free again for the raw mutex").isTrue();
	}

	/**
	 * Try the raw lock on another thread: a Curator mutex re-enters on the thread that
	 * holds it.
	 */
	private boolean tryOnAnotherThread(InterProcessLock raw, long waitMillis) throws Exception {
		return this.threads.submit(() -> {
			if (!raw.acquire(waitMillis, TimeUnit.MILLISECONDS)) {
				return false;
			}
			raw.release();
			return true;
		}).get(30, TimeUnit.SECONDS);
	}

	/** The new version's code, on distlock's annotations. */
	static class OrderService {

		@DistributedLock(value = "orders/#{#id}", waitTime = "300ms", onTimeout = OnTimeout.SKIP)
		public boolean tryOrder(String id) {
			return true;
		}

		@DistributedLock(value = "orders/#{#id}", waitTime = "5s")
		public <T> T whileHoldingOrder(String id, Callable<T> action) throws Exception {
			return action.call();
		}

		@WriteLock(value = "catalog/#{#sku}", waitTime = "300ms", onTimeout = OnTimeout.SKIP)
		public boolean tryWriteSku(String sku) {
			return true;
		}

		@WriteLock(value = "catalog/#{#sku}", waitTime = "5s")
		public <T> T whileWritingSku(String sku, Callable<T> action) throws Exception {
			return action.call();
		}

	}

}
