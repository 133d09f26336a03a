package io.github.distlock.benchmarks;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.curator.CuratorLocks;

/**
 * Scale soak: a million distinct keys, each locked and released once through
 * {@link CuratorLocks} by parallel threads. Passes if the heap used after GC grew by less
 * than the bound (no per-key retention) and the number of znodes on the server returns to
 * its baseline once ZooKeeper has reaped the empty lock parents (container nodes).
 * <p>
 * ZooKeeper runs in a child process ({@link SoakServer}), so the heap measured is this
 * client's only. System properties: {@code soak.keys} (1 000 000), {@code soak.threads}
 * (8), {@code soak.heapBoundMb} (8), {@code soak.reapTimeoutSeconds} (600). Exits with
 * status 1 if a bound is missed.
 */
public final class Soak {

	private static final int WARM_UP_KEYS = 20_000;

	private Soak() {
	}

	public static void main(String[] args) throws Exception {
		int keys = Integer.getInteger("soak.keys", 1_000_000);
		int threads = Integer.getInteger("soak.threads", 8);
		long heapBound = Long.getLong("soak.heapBoundMb", 8) * 1024 * 1024;
		Duration reapTimeout = Duration.ofSeconds(Long.getLong("soak.reapTimeoutSeconds", 600));
		Process server = startServer();
		boolean passed;
		try {
			String connect = readConnectString(server);
			passed = run(connect, keys, threads, heapBound, reapTimeout);
		}
		finally {
			server.getOutputStream().close();
			server.destroy();
		}
		System.exit(passed ? 0 : 1);
	}

	private static boolean run(String connect, int keys, int threads, long heapBound, Duration reapTimeout)
			throws Exception {
		CuratorFramework client = BenchmarkClients.start(connect, "soak");
		try (CuratorLocks locks = CuratorLocks.builder(client)
			.defaultWaitTime(Duration.ofSeconds(30))
			.applicationName("soak")
			.build()) {
			client.checkExists().forPath("/");
			long baseline = znodeCount(connect);
			System.out.printf(Locale.ROOT, "znodes at start: %d%n", baseline);
			lockEach(locks, "warmup", WARM_UP_KEYS, threads, false);
			long reapedWarmUp = awaitZnodes(connect, baseline, reapTimeout);
			long heapBefore = usedHeapAfterGc();
			System.out.printf(Locale.ROOT,
					"warm-up of %d keys done, znodes back to %d in %d ms; heap after GC: %.1f MB%n", WARM_UP_KEYS,
					znodeCount(connect), reapedWarmUp, mb(heapBefore));
			long start = System.nanoTime();
			long peak = lockEach(locks, "soak", keys, threads, true);
			double seconds = (System.nanoTime() - start) / 1e9;
			System.out.printf(Locale.ROOT,
					"%d keys locked and released in %.1f s (%.0f/s) by %d threads; " + "most znodes seen: %d%n", keys,
					seconds, keys / seconds, threads, peak);
			long heapAfterRun = usedHeapAfterGc();
			long znodesAfterRun = znodeCount(connect);
			long reaped = awaitZnodes(connect, baseline, reapTimeout);
			long znodesAfter = znodeCount(connect);
			long heapAfter = usedHeapAfterGc();
			long growth = heapAfter - heapBefore;
			System.out.printf(Locale.ROOT,
					"right after the run: heap after GC %.1f MB, znodes %d; znodes back to %d (baseline %d) "
							+ "%d ms later%n",
					mb(heapAfterRun), znodesAfterRun, znodesAfter, baseline, reaped);
			int leftovers = leftovers(locks);
			System.out.printf(Locale.ROOT,
					"heap after GC: before %.1f MB, after %.1f MB, growth %+.2f MB "
							+ "(bound %.0f MB); held locks left: %d, waiting: %d; kept for unused locks (local "
							+ "queues, armed deadlines, unconfirmed releases): %d%n",
					mb(heapBefore), mb(heapAfter), mb(growth), mb(heapBound), locks.heldCount(), locks.waitingCount(),
					leftovers);
			boolean heapOk = growth < heapBound;
			boolean znodesOk = znodesAfter <= baseline;
			boolean engineOk = locks.heldCount() == 0 && locks.waitingCount() == 0 && leftovers == 0;
			boolean passed = heapOk && znodesOk && engineOk;
			System.out.println("SOAK " + (passed ? "PASSED" : "FAILED") + ": heap " + (heapOk ? "within" : "OVER")
					+ " bound, znodes " + (znodesOk ? "back to" : "NOT back to") + " baseline, engine "
					+ (engineOk ? "keeps nothing" : "KEEPS STATE") + " for unused locks");
			return passed;
		}
		finally {
			client.close();
		}
	}

	/**
	 * What the engine keeps for locks nobody holds or waits for, from its package-private
	 * count (for tests; read here by reflection, as the soak is outside the package).
	 */
	private static int leftovers(CuratorLocks locks) throws ReflectiveOperationException {
		Method leftovers = CuratorLocks.class.getDeclaredMethod("leftovers");
		leftovers.setAccessible(true);
		return (int) leftovers.invoke(locks);
	}

	/**
	 * Lock and release each of the keys once, from parallel threads.
	 * @return the highest znode count seen while it ran (sampled), or -1 if not sampled
	 */
	private static long lockEach(CuratorLocks locks, String prefix, int keys, int threads, boolean report)
			throws Exception {
		AtomicInteger next = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		long peak = -1;
		try {
			List<Future<?>> workers = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				workers.add(pool.submit(() -> {
					for (int key = next.getAndIncrement(); key < keys; key = next.getAndIncrement()) {
						try (LockHandle handle = locks.mutex(LockPath.of(prefix, Integer.toString(key)))
							.acquire(Duration.ofSeconds(30))) {
							// nothing to do under the lock
						}
					}
					return null;
				}));
			}
			String connect = locks.client().getZookeeperClient().getCurrentConnectionString();
			long lastReport = System.nanoTime();
			int lastCount = 0;
			while (!allDone(workers)) {
				Thread.sleep(200);
				if (report) {
					peak = Math.max(peak, znodeCount(connect));
					long now = System.nanoTime();
					if (now - lastReport > 10_000_000_000L) {
						int count = Math.min(next.get(), keys);
						System.out.printf(Locale.ROOT, "  %d keys, %.0f/s, znodes now %d, heap used %.0f MB%n", count,
								(count - lastCount) / ((now - lastReport) / 1e9), znodeCount(connect),
								mb(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed()));
						lastReport = now;
						lastCount = count;
					}
				}
			}
			for (Future<?> worker : workers) {
				worker.get();
			}
		}
		finally {
			pool.shutdownNow();
		}
		return peak;
	}

	private static boolean allDone(List<Future<?>> workers) {
		return workers.stream().allMatch(Future::isDone);
	}

	/**
	 * Wait until the server has no more znodes than the baseline.
	 * @return how long it took, in milliseconds
	 */
	private static long awaitZnodes(String connect, long baseline, Duration timeout) throws Exception {
		long start = System.nanoTime();
		long deadline = start + timeout.toNanos();
		while (znodeCount(connect) > baseline) {
			if (System.nanoTime() > deadline) {
				System.out.printf(Locale.ROOT, "znodes still %d after %s (baseline %d)%n", znodeCount(connect), timeout,
						baseline);
				break;
			}
			Thread.sleep(100);
		}
		return (System.nanoTime() - start) / 1_000_000;
	}

	/** The number of znodes of the whole tree, from ZooKeeper's {@code mntr} command. */
	static long znodeCount(String connect) throws IOException {
		String[] hostPort = connect.split(",")[0].split(":");
		try (Socket socket = new Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
			OutputStream out = socket.getOutputStream();
			out.write("mntr".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			BufferedReader reader = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
			// Read to the end: closing early makes the server log a broken pipe.
			long count = -1;
			for (String line = reader.readLine(); line != null; line = reader.readLine()) {
				if (line.startsWith("zk_znode_count")) {
					count = Long.parseLong(line.substring("zk_znode_count".length()).trim());
				}
			}
			if (count >= 0) {
				return count;
			}
		}
		throw new IllegalStateException("ZooKeeper's mntr did not report zk_znode_count");
	}

	private static long usedHeapAfterGc() throws InterruptedException {
		long used = Long.MAX_VALUE;
		for (int i = 0; i < 5; i++) {
			System.gc();
			Thread.sleep(200);
			used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
		}
		return used;
	}

	private static double mb(long bytes) {
		return bytes / (1024.0 * 1024.0);
	}

	private static Process startServer() throws IOException {
		String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
		return new ProcessBuilder(java, "-Xmx1g", "-cp", System.getProperty("java.class.path"),
				SoakServer.class.getName())
			.redirectError(ProcessBuilder.Redirect.INHERIT)
			.start();
	}

	private static String readConnectString(Process server) throws IOException {
		BufferedReader reader = new BufferedReader(
				new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
		for (String line = reader.readLine(); line != null; line = reader.readLine()) {
			if (line.startsWith(SoakServer.CONNECT_PREFIX)) {
				return line.substring(SoakServer.CONNECT_PREFIX.length()).trim();
			}
		}
		throw new IllegalStateException("The ZooKeeper process ended without giving its connect string");
	}

}
