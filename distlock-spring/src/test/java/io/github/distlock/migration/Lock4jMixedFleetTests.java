package io.github.distlock.migration;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/migrating-from-lock4j.md: lock4j's ZooKeeper executor locks an
 * {@code InterProcessMutex} at {@code <base-path>/lock4j:<name>#<keys>}. With the base
 * path {@code /<namespace>/mutex}, an old instance's
 * {@code @Lock4j(name = "orders", keys = "#id")} and a new instance's
 * {@code @DistributedLock("lock4j:orders##{#id}")} exclude each other, each in its own
 * ZooKeeper session, in both directions. lock4j itself does not start on Spring Boot 4:
 * the old instance is the raw mutex lock4j's executor makes, at the node it names.
 */
class Lock4jMixedFleetTests {

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	private static OrderService service;

	private CuratorFramework oldInstance;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@BeforeAll
	static void startTheNewVersionsService() {
		service = contexts.start(OrderService.class).getBean(OrderService.class);
	}

	@BeforeEach
	void startTheOldVersion() {
		this.oldInstance = contexts.zookeeper()
			.nodes()
			.client(contexts.connectString(), contexts.zookeeper().options().withNamespace(null));
	}

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@ParameterizedTest
	@ValueSource(strings = { "42", "eu:42", "a b" })
	void lock4jsNodeAndDistlocksAnnotationExcludeEachOther(String id) throws Exception {
		// lock4j: basePath + "/" + lockKeyPrefix + ":" + name + "#" + keys
		String basePath = "/" + contexts.zookeeper().options().namespace() + "/mutex";
		InterProcessMutex lock4j = new InterProcessMutex(this.oldInstance, basePath + "/lock4j:orders#" + id);
		assertThat(lock4j.acquire(5, TimeUnit.SECONDS)).isTrue();
		try {
			assertThat(service.tryOrder(id)).as("distlock's annotation while lock4j holds").isFalse();
		}
		finally {
			lock4j.release();
		}
		assertThat(service.whileHoldingOrder(id, () -> tryOnAnotherThread(lock4j, 300)))
			.as("lock4j while distlock's annotation holds")
			.isFalse();
		assertThat(tryOnAnotherThread(lock4j, 5000)).as("free again for lock4j").isTrue();
	}

	/**
	 * Try lock4j's mutex on another thread: a Curator mutex re-enters on the thread that
	 * holds it.
	 */
	private boolean tryOnAnotherThread(InterProcessMutex lock4j, long waitMillis) throws Exception {
		return this.threads.submit(() -> {
			if (!lock4j.acquire(waitMillis, TimeUnit.MILLISECONDS)) {
				return false;
			}
			lock4j.release();
			return true;
		}).get(30, TimeUnit.SECONDS);
	}

	/** The new version's code, on distlock's annotation. */
	static class OrderService {

		@DistributedLock(value = "lock4j:orders##{#id}", waitTime = "300ms", onTimeout = OnTimeout.SKIP)
		public boolean tryOrder(String id) {
			return true;
		}

		@DistributedLock(value = "lock4j:orders##{#id}", waitTime = "5s")
		public <T> T whileHoldingOrder(String id, Callable<T> action) throws Exception {
			return action.call();
		}

	}

}
