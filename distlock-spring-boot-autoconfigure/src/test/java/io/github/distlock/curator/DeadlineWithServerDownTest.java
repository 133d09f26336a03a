package io.github.distlock.curator;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.testsupport.LockShape;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The wait deadline holds when ZooKeeper is down, where Curator's own timed acquire would
 * block for its connection timeout and retries.
 */
class DeadlineWithServerDownTest {

	// Every acquisition gives up within its wait time + 150 ms.
	private static final Duration BOUND = Duration.ofMillis(500 + 150);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@ParameterizedTest
	@EnumSource(LockShape.class)
	void acquireRightAfterTheServerStoppedFailsWithinItsWaitTime(LockShape shape) throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		shape.exclusive(locks, "warm-up").acquire(Duration.ofSeconds(5)).close();
		this.zookeeper.server().stop();
		long start = System.nanoTime();
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> shape.exclusive(locks, "down").acquire(Duration.ofMillis(500)))
			.withMessageContaining("'down'")
			.withMessageContaining("500ms");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(BOUND);
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
	}

	@ParameterizedTest
	@EnumSource(LockShape.class)
	void tryOnceOnceTheClientKnowsItIsDisconnectedFailsAtOnce(LockShape shape) throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		shape.exclusive(locks, "warm-up").acquire(Duration.ofSeconds(5)).close();
		this.zookeeper.server().stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> !locks.client().getZookeeperClient().isConnected());
		long start = System.nanoTime();
		assertThat(shape.exclusive(locks, "down").tryAcquire(Duration.ZERO)).isEmpty();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(150));
	}

	@Test
	void acquireWhileDisconnectedFailsWithinItsWaitTimeAndSaysZooKeeperIsNotConnected() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		locks.mutex("warm-up").acquire(Duration.ofSeconds(5)).close();
		this.zookeeper.server().stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> !locks.client().getZookeeperClient().isConnected());
		long start = System.nanoTime();
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> locks.mutex("down").acquire(Duration.ofMillis(500)))
			.withMessageContaining("not connected")
			.withMessageContaining(this.zookeeper.server().getConnectString());
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(450), BOUND);
	}

	@Test
	void waiterWhoseServerStopsMidWaitFailsWithinItsWaitTime() throws Exception {
		CuratorLocks holderNode = this.zookeeper.newNode();
		CuratorLocks waiterNode = this.zookeeper.newNode();
		LockHandle held = holderNode.mutex("mid-wait").acquire(Duration.ofSeconds(5));
		CountDownLatch started = new CountDownLatch(1);
		CompletableFuture<Long> waited = CompletableFuture.supplyAsync(() -> {
			started.countDown();
			long start = System.nanoTime();
			try {
				waiterNode.mutex("mid-wait").acquire(Duration.ofMillis(1500)).close();
				return -1L;
			}
			catch (LockTimeoutException ex) {
				return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
			}
		});
		started.await();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> holderNode.client().getChildren().forPath("/mutex/mid-wait").size() == 2);
		this.zookeeper.server().stop();
		long elapsedMillis = waited.get(20, TimeUnit.SECONDS);
		assertThat(elapsedMillis).isBetween(1500L, 1500L + 150L);
		// The holder's node dies with its session when the client closes.
		held.close();
	}

	@Test
	void unreachableEnsembleFailsWithinTheWaitTime() throws Exception {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		CuratorLocks locks = this.zookeeper.newNode("127.0.0.1:" + closedPort);
		long start = System.nanoTime();
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> locks.mutex("nowhere").acquire(Duration.ofMillis(500)))
			.withMessageContaining("127.0.0.1:" + closedPort)
			.withMessageContaining("not connected");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(BOUND);
	}

	@Test
	void lockingWorksAgainOnceTheServerIsBack() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		locks.mutex("warm-up").acquire(Duration.ofSeconds(5)).close();
		this.zookeeper.server().stop();
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> locks.mutex("again").acquire(Duration.ofMillis(300)));
		this.zookeeper.server().restart();
		try (LockHandle handle = locks.mutex("again").acquire(Duration.ofSeconds(10))) {
			assertThat(handle.fencingToken()).isPositive();
			// A create the abandoned attempt sent as the server went away is answered
			// once it
			// is back, and its node deleted then, in the background.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> locks.client().getChildren().forPath("/mutex/again").size() == 1);
		}
	}

}
