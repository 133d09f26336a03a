package io.github.distlock.faults;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.relay.TcpRelay;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.LockShape;
import io.github.distlock.testsupport.SectionProbe;
import io.github.distlock.testsupport.ServerWatches;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The network path of one node stops forwarding (a relay holds everything back, the
 * connections stay open: the client notices only by its own timeouts), for every kind of
 * lock: the node's waiting and new acquisitions give up within their wait time + 150 ms,
 * its holds become lost, another node takes its locks once the server expired its session
 * (never before), and once the path forwards again the node locks again and nothing is
 * left behind.
 */
class RelayFaultTests {

	/** How late an acquisition may give up after its wait time. */
	private static final long OVERRUN_BOUND_MILLIS = 150;

	static {
		ServerWatches.enable();
	}

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	private final ExecutorService callers = Executors.newCachedThreadPool();

	@AfterEach
	void stopCallers() {
		this.callers.shutdownNow();
	}

	@Test
	void stalledPathEveryKindGivesUpOnTimeLosesItsHoldsAndRecovers() throws Exception {
		try (TcpRelay relay = new TcpRelay(this.zookeeper.server().getPort())) {
			CuratorLocks stalled = this.zookeeper.newNode(relay.getConnectString());
			CuratorLocks direct = this.zookeeper.newNode();
			Map<LockShape, LockHandle> held = new EnumMap<>(LockShape.class);
			Map<LockShape, LockHandle> heldByOther = new EnumMap<>(LockShape.class);
			Map<LockShape, SectionProbe> probes = new EnumMap<>(LockShape.class);
			Map<LockShape, CompletableFuture<Long>> waiting = new EnumMap<>(LockShape.class);
			Duration waiterWait = Duration.ofMillis(2500);
			for (LockShape shape : LockShape.values()) {
				SectionProbe probe = new SectionProbe(this.zookeeper.newClient(),
						shape.holdersNode(path(shape, "held")));
				probes.put(shape, probe);
				LockHandle handle = shape.exclusive(stalled, path(shape, "held")).acquire(Duration.ofSeconds(10));
				probe.enter(handle);
				held.put(shape, handle);
				heldByOther.put(shape, shape.exclusive(direct, path(shape, "busy")).acquire(Duration.ofSeconds(5)));
				waiting.put(shape, Faults.giveUpTime(
						() -> shape.exclusive(stalled, path(shape, "busy")).acquire(waiterWait).close(), this.callers));
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> stalled.waitingCount() == LockShape.values().length);

			relay.pause();
			long paused = System.nanoTime();
			Map<LockShape, CompletableFuture<Long>> fresh = new EnumMap<>(LockShape.class);
			Duration wait = Duration.ofMillis(500);
			for (LockShape shape : LockShape.values()) {
				fresh.put(shape, Faults.giveUpTime(
						() -> shape.exclusive(stalled, path(shape, "fresh")).acquire(wait).close(), this.callers));
			}
			StringBuilder report = new StringBuilder();
			for (LockShape shape : LockShape.values()) {
				long overrun = fresh.get(shape).get(20, TimeUnit.SECONDS) - wait.toMillis();
				long waiterOverrun = waiting.get(shape).get(20, TimeUnit.SECONDS) - waiterWait.toMillis();
				assertThat(overrun).as("%s: new acquisition overrun", shape)
					.isGreaterThanOrEqualTo(0)
					.isLessThan(OVERRUN_BOUND_MILLIS);
				assertThat(waiterOverrun).as("%s: waiter overrun", shape)
					.isGreaterThanOrEqualTo(0)
					.isLessThan(OVERRUN_BOUND_MILLIS);
				report.append(shape)
					.append(" new +")
					.append(overrun)
					.append(" ms, waiting +")
					.append(waiterOverrun)
					.append(" ms; ");
			}
			for (LockShape shape : LockShape.values()) {
				await().atMost(Duration.ofSeconds(10)).until(() -> held.get(shape).state() == LockState.LOST);
			}
			// Another node gets the locks once the server has expired the session, and
			// not before: its node is gone then.
			long[] takenOverAfter = new long[1];
			for (LockShape shape : LockShape.values()) {
				SectionProbe probe = probes.get(shape);
				try (LockHandle successor = shape.exclusive(direct, path(shape, "held"))
					.acquire(Duration.ofSeconds(15))) {
					takenOverAfter[0] = Math.max(takenOverAfter[0], System.nanoTime() - paused);
					probe.enter(successor);
					probe.exit(successor);
					assertThat(successor.fencingToken()).isGreaterThan(held.get(shape).fencingToken());
				}
				assertThat(probe.doubleGrants()).as("%s: %s", shape, probe.details()).isZero();
				heldByOther.get(shape).close();
			}
			assertThat(Duration.ofNanos(takenOverAfter[0])).isGreaterThanOrEqualTo(Duration.ofMillis(2000));

			relay.resume();
			await().atMost(Duration.ofSeconds(15)).until(() -> stalled.client().getZookeeperClient().isConnected());
			for (LockShape shape : LockShape.values()) {
				probes.get(shape).exit(held.get(shape));
				held.get(shape).close();
				try (LockHandle again = shape.exclusive(stalled, path(shape, "held")).acquire(Duration.ofSeconds(10))) {
					assertThat(again.isHeld()).isTrue();
				}
			}
			for (LockShape shape : LockShape.values()) {
				for (String name : new String[] { "held", "busy", "fresh" }) {
					for (String lockNode : shape.lockNodes(path(shape, name))) {
						await().atMost(Duration.ofSeconds(15))
							.untilAsserted(() -> assertThat(Faults.children(direct.client(), lockNode)).isEmpty());
					}
				}
			}
			await().atMost(Duration.ofSeconds(15))
				.untilAsserted(
						() -> assertThat(ServerWatches.watchedLockPaths(this.zookeeper.server().getPort())).isEmpty());
			System.out.println("[measure] relay stopped forwarding, past the wait time: " + report
					+ "another node took every lock over " + TimeUnit.NANOSECONDS.toMillis(takenOverAfter[0])
					+ " ms after the stall (session timeout " + Faults.SESSION_TIMEOUT_MS
					+ " ms), 0 double grants, 0 nodes and 0 watches left");
		}
	}

	private static String path(LockShape shape, String name) {
		return "relay/" + shape.name().toLowerCase() + "/" + name;
	}

}
