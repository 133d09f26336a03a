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
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * The wait deadline holds when ZooKeeper is down, where Curator's own timed acquire would
 * block for its connection timeout and retries.
 */
class DeadlineWithServerDownTests {

	// Every acquisition gives up at its deadline, by the deadline's timer: before the
	// client's connection timeout (3 s), which a blocking Curator call would run into.
	// How late past the deadline is a figure ([measure] lines, docs/benchmarks.md), not
	// an assertion: it depends on how loaded the machine is.
	private static final Duration BOUND = Duration.ofSeconds(3);

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@ParameterizedTest
	@EnumSource(LockShape.class)
	void acquireRightAfterTheServerStoppedFailsWithinItsWaitTime(LockShape shape) throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		shape.exclusive(locks, "warm-up").acquire(Duration.ofSeconds(5)).close();
		this.zookeeper.server().stop();
		LockTimeoutException timeout = catchThrowableOfType(LockTimeoutException.class,
				() -> shape.exclusive(locks, "down").acquire(Duration.ofMillis(500)));
		assertThat(timeout).hasMessageContaining("'down'").hasMessageContaining("500ms");
		assertWaited(timeout, 500);
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
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		System.out
			.println("[measure] try-once while disconnected (" + shape + "): failed after " + took.toMillis() + " ms");
		assertThat(took).isLessThan(BOUND);
	}

	@Test
	void acquireWhileDisconnectedFailsWithinItsWaitTimeAndSaysZooKeeperIsNotConnected() throws Exception {
		CuratorLocks locks = this.zookeeper.newNode();
		locks.mutex("warm-up").acquire(Duration.ofSeconds(5)).close();
		this.zookeeper.server().stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> !locks.client().getZookeeperClient().isConnected());
		LockTimeoutException timeout = catchThrowableOfType(LockTimeoutException.class,
				() -> locks.mutex("down").acquire(Duration.ofMillis(500)));
		assertThat(timeout).hasMessageContaining("not connected")
			.hasMessageContaining(this.zookeeper.server().getConnectString());
		assertWaited(timeout, 500);
	}

	@Test
	void waiterWhoseServerStopsMidWaitFailsWithinItsWaitTime() throws Exception {
		CuratorLocks holderNode = this.zookeeper.newNode();
		CuratorLocks waiterNode = this.zookeeper.newNode();
		LockHandle held = holderNode.mutex("mid-wait").acquire(Duration.ofSeconds(5));
		CountDownLatch started = new CountDownLatch(1);
		CompletableFuture<LockTimeoutException> waited = CompletableFuture.supplyAsync(() -> {
			started.countDown();
			try {
				waiterNode.mutex("mid-wait").acquire(Duration.ofMillis(1500)).close();
				return null;
			}
			catch (LockTimeoutException ex) {
				return ex;
			}
		});
		started.await();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> holderNode.client().getChildren().forPath("/mutex/mid-wait").size() == 2);
		this.zookeeper.server().stop();
		assertWaited(waited.get(20, TimeUnit.SECONDS), 1500);
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
		LockTimeoutException timeout = catchThrowableOfType(LockTimeoutException.class,
				() -> locks.mutex("nowhere").acquire(Duration.ofMillis(500)));
		assertThat(timeout).hasMessageContaining("127.0.0.1:" + closedPort).hasMessageContaining("not connected");
		assertWaited(timeout, 500);
	}

	/**
	 * A try-once fails at once once the client knows it is disconnected (above), but a
	 * client never connected yet may still be connecting: it waits, within its bound of 1
	 * s, for the first connection, here one that never comes.
	 */
	@Test
	void tryOnceOfAClientNeverConnectedWaitsItsBoundForTheFirstConnection() throws Exception {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		CuratorLocks locks = this.zookeeper.newNode("127.0.0.1:" + closedPort);
		LockTimeoutException timeout = catchThrowableOfType(LockTimeoutException.class,
				() -> locks.mutex("first").acquire(Duration.ZERO));
		assertWaited(timeout, Acquisition.TRY_ONCE_BOUND.toMillis());
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
			// A create the abandoned acquisition sent as the server went away is
			// answered once it is back, and its node deleted then, in the background.
			await().atMost(Duration.ofSeconds(10))
				.until(() -> locks.client().getChildren().forPath("/mutex/again").size() == 1);
		}
	}

	private static void assertWaited(LockTimeoutException timeout, long waitMillis) {
		assertThat(timeout).isNotNull();
		Duration waited = timeout.getWaited().orElseThrow();
		System.out.println(
				"[measure] wait " + waitMillis + " ms with ZooKeeper away: gave up after " + waited.toMillis() + " ms");
		assertThat(waited).isGreaterThanOrEqualTo(Duration.ofMillis(waitMillis)).isLessThan(BOUND);
	}

}
