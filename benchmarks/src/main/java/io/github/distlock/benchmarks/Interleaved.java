package io.github.distlock.benchmarks;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMultiLock;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.test.TestingServer;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.ClusterReadWriteLock;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.MultiLockHandle;
import io.github.distlock.curator.CuratorLocks;

/**
 * Throughput ratios against raw Curator with the machine's drift cancelled: the
 * contenders of a scenario take turns in short slices (one second by default), in random
 * order within each round, against the same server; each round gives one ratio per
 * contender, and the report is their geometric mean with a 99% confidence interval. JMH
 * runs each contender for its whole trial one after the other, so on a machine whose load
 * changes from minute to minute its ratios carry that change (the intervals of a JMH run
 * on a shared machine are often wider than the ratios).
 * <p>
 * Between two slices every contender's session settles (one read answered after all it
 * sent, distlock's unconfirmed releases included), so no slice runs on work left by the
 * previous one. A slice counts the cycles its threads finish, from its start until the
 * last thread has ended its cycle.
 * <p>
 * {@code java -jar benchmarks/target/benchmarks.jar interleaved [scenario...]}; scenarios
 * {@code hotKey32}, {@code readWrite90to10}, {@code semaphore4Permits16Threads},
 * {@code multiLock3Paths}, {@code uncontended} (all by default); system properties
 * {@code bench.rounds} (20), {@code bench.warmupRounds} (3), {@code bench.sliceMillis} (1
 * 000).
 */
final class Interleaved {

	static final List<String> CONTENDERS = List.of(RawCuratorContender.NAME, DistlockContender.NAME,
			AnnotationContender.NAME);

	private Interleaved() {
	}

	static void main(String[] args) throws Exception {
		int rounds = Integer.getInteger("bench.rounds", 20);
		int warmup = Integer.getInteger("bench.warmupRounds", 3);
		long slice = Long.getLong("bench.sliceMillis", 1_000);
		List<String> scenarios = (args.length > 0) ? List.of(args) : List.of("hotKey32", "readWrite90to10",
				"semaphore4Permits16Threads", "multiLock3Paths", "uncontended");
		System.setProperty("zookeeper.forceSync", "no");
		System.setProperty("zookeeper.admin.enableServer", "false");
		try (TestingServer server = new TestingServer(true)) {
			System.setProperty(BenchmarkClients.CONNECT_PROPERTY, server.getConnectString());
			System.out.printf(Locale.ROOT,
					"%s; load average %s; %d rounds of %d ms slices (after %d rounds of warm-up)%n",
					ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), PairedOverhead.loadAverage(),
					rounds, slice, warmup);
			List<String> rows = new ArrayList<>();
			for (String scenario : scenarios) {
				rows.addAll(run(scenario, rounds, warmup, slice));
			}
			System.out
				.println("| scenario | contender | ops/s (mean of slices) | × raw Curator, geometric mean (99% CI) |");
			System.out.println("|---|---|---:|---:|");
			rows.forEach(System.out::println);
			System.out.printf(Locale.ROOT, "load average at the end: %s%n", PairedOverhead.loadAverage());
		}
	}

	private static List<String> run(String scenario, int rounds, int warmup, long sliceMillis) throws Exception {
		Map<String, Contender> contenders = new LinkedHashMap<>();
		try {
			for (String name : CONTENDERS) {
				contenders.put(name, Contender.create(scenario, name));
			}
			int threads = threads(scenario);
			Map<String, double[]> rates = new LinkedHashMap<>();
			contenders.keySet().forEach((name) -> rates.put(name, new double[rounds]));
			for (int round = -warmup; round < rounds; round++) {
				List<String> order = new ArrayList<>(contenders.keySet());
				Collections.shuffle(order, ThreadLocalRandom.current());
				for (String name : order) {
					Contender contender = contenders.get(name);
					double rate = slice(contender, threads, sliceMillis);
					contender.settle();
					if (round >= 0) {
						rates.get(name)[round] = rate;
					}
				}
			}
			double[] raw = rates.get(RawCuratorContender.NAME);
			List<String> rows = new ArrayList<>();
			for (Map.Entry<String, double[]> entry : rates.entrySet()) {
				double[] logRatios = new double[rounds];
				for (int i = 0; i < rounds; i++) {
					logRatios[i] = Math.log(entry.getValue()[i] / raw[i]);
				}
				double mean = Arrays.stream(logRatios).average().orElseThrow();
				double sd = Math
					.sqrt(Arrays.stream(logRatios).map((x) -> (x - mean) * (x - mean)).sum() / Math.max(1, rounds - 1));
				double half = tQuantile995(rounds - 1) * sd / Math.sqrt(rounds);
				String row = String.format(Locale.ROOT, "| %s (%d threads) | %s | %.0f | %.2f× (%.2f .. %.2f) |",
						scenario, threads, entry.getKey(), Arrays.stream(entry.getValue()).average().orElseThrow(),
						Math.exp(mean), Math.exp(mean - half), Math.exp(mean + half));
				System.out.println(row);
				rows.add(row);
			}
			return rows;
		}
		finally {
			for (Contender contender : contenders.values()) {
				contender.close();
			}
		}
	}

	/**
	 * Run the contender's cycle on the threads for one slice; return cycles per second.
	 */
	private static double slice(Contender contender, int threads, long millis) throws Exception {
		LongAdder done = new LongAdder();
		AtomicReference<Exception> failure = new AtomicReference<>();
		CountDownLatch finished = new CountDownLatch(threads);
		long start = System.nanoTime();
		long deadline = start + TimeUnit.MILLISECONDS.toNanos(millis);
		for (int t = 0; t < threads; t++) {
			Thread worker = new Thread(() -> {
				try {
					while (System.nanoTime() - deadline < 0) {
						contender.cycle();
						done.increment();
					}
				}
				catch (Exception ex) {
					failure.compareAndSet(null, ex);
				}
				finally {
					finished.countDown();
				}
			}, "interleaved-" + t);
			worker.start();
		}
		finished.await();
		double seconds = (System.nanoTime() - start) / 1e9;
		if (failure.get() != null) {
			throw new IllegalStateException("A cycle failed", failure.get());
		}
		return done.sum() / seconds;
	}

	private static int threads(String scenario) {
		return switch (scenario) {
			case "hotKey32" -> 32;
			case "readWrite90to10" -> 8;
			case "semaphore4Permits16Threads" -> 16;
			case "multiLock3Paths", "uncontended" -> 1;
			default -> throw new IllegalArgumentException("Unknown scenario '" + scenario + "'");
		};
	}

	// 99% two-sided Student t quantiles for small samples; 2.576 beyond.
	private static double tQuantile995(int degrees) {
		double[] table = { 63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169, 3.106, 3.055, 3.012,
				2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845, 2.831, 2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763,
				2.756, 2.750 };
		return (degrees >= 1 && degrees <= table.length) ? table[degrees - 1] : 2.576;
	}

	/** One contender in one scenario: its cycle, on its own session. */
	private interface Contender extends AutoCloseable {

		void cycle() throws Exception;

		void settle() throws Exception;

		static Contender create(String scenario, String name) {
			return switch (name) {
				case RawCuratorContender.NAME -> raw(scenario);
				case DistlockContender.NAME -> distlock(scenario);
				case AnnotationContender.NAME -> annotation(scenario);
				default -> throw new IllegalArgumentException("Unknown contender '" + name + "'");
			};
		}

		private static Contender raw(String scenario) {
			CuratorFramework client = BenchmarkClients.start();
			Cycle cycle = switch (scenario) {
				case "hotKey32", "uncontended" -> {
					InterProcessMutex mutex = new InterProcessMutex(client, "/raw/" + key(scenario));
					yield () -> {
						if (!mutex.acquire(MutexContender.WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
							throw MutexContender.notAcquired(key(scenario));
						}
						mutex.release();
					};
				}
				case "readWrite90to10" -> {
					InterProcessReadWriteLock lock = new InterProcessReadWriteLock(client, "/raw-rw/mix");
					yield () -> {
						InterProcessMutex side = write() ? lock.writeLock() : lock.readLock();
						if (!side.acquire(MutexContender.WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
							throw MutexContender.notAcquired("rw");
						}
						side.release();
					};
				}
				case "semaphore4Permits16Threads" -> {
					InterProcessSemaphoreV2 semaphore = new InterProcessSemaphoreV2(client, "/raw-semaphore/pool",
							SemaphoreBenchmark.PERMITS);
					yield () -> {
						Lease lease = semaphore.acquire(MutexContender.WAIT.toMillis(), TimeUnit.MILLISECONDS);
						if (lease == null) {
							throw MutexContender.notAcquired("semaphore");
						}
						semaphore.returnLease(lease);
					};
				}
				case "multiLock3Paths" -> {
					InterProcessMultiLock multi = new InterProcessMultiLock(client,
							MultiLockBenchmark.KEYS.stream().map((key) -> "/raw/" + key).toList());
					yield () -> {
						if (!multi.acquire(MutexContender.WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
							throw MutexContender.notAcquired("multi");
						}
						multi.release();
					};
				}
				default -> throw new IllegalArgumentException("Unknown scenario '" + scenario + "'");
			};
			return of(cycle, client, client::close);
		}

		private static Contender distlock(String scenario) {
			DistlockContender distlock = new DistlockContender();
			CuratorLocks locks = distlock.locks();
			Cycle cycle = switch (scenario) {
				case "hotKey32", "uncontended" -> () -> distlock.cycle(key(scenario));
				case "readWrite90to10" -> {
					ClusterReadWriteLock lock = locks.readWrite("mix");
					yield () -> {
						try (LockHandle handle = (write() ? lock.writeLock() : lock.readLock())
							.acquire(MutexContender.WAIT)) {
							// nothing to do under the lock
						}
					};
				}
				case "semaphore4Permits16Threads" -> {
					ClusterLock semaphore = locks.semaphore("pool", SemaphoreBenchmark.PERMITS);
					yield () -> {
						try (LockHandle handle = semaphore.acquire(MutexContender.WAIT)) {
							// nothing to do under the permit
						}
					};
				}
				case "multiLock3Paths" -> () -> {
					try (MultiLockHandle handle = locks
						.multi(MultiLockBenchmark.KEYS.stream().map(locks::mutex).toList())
						.acquire(MutexContender.WAIT)) {
						// nothing to do under the locks
					}
				};
				default -> throw new IllegalArgumentException("Unknown scenario '" + scenario + "'");
			};
			return of(cycle, distlock.client(), distlock::close);
		}

		private static Contender annotation(String scenario) {
			AnnotationContender annotation = new AnnotationContender();
			AnnotatedLocks bean = annotation.annotated();
			Cycle cycle = switch (scenario) {
				case "hotKey32", "uncontended" -> () -> bean.cycle(key(scenario));
				case "readWrite90to10" -> () -> {
					if (write()) {
						bean.write("mix");
					}
					else {
						bean.read("mix");
					}
				};
				case "semaphore4Permits16Threads" -> () -> bean.permit("pool");
				case "multiLock3Paths" -> () -> bean.all(MultiLockBenchmark.KEYS);
				default -> throw new IllegalArgumentException("Unknown scenario '" + scenario + "'");
			};
			return of(cycle, annotation.client(), annotation::close);
		}

		private static String key(String scenario) {
			return scenario.equals("hotKey32") ? HotKeyBenchmark.KEY : "uncontended";
		}

		private static boolean write() {
			return ThreadLocalRandom.current().nextInt(10) == 0;
		}

		private static Contender of(Cycle cycle, CuratorFramework client, Closer closer) {
			return new Contender() {

				@Override
				public void cycle() throws Exception {
					cycle.run();
				}

				@Override
				public void settle() throws Exception {
					client.getZookeeperClient().getZooKeeper().exists("/", false);
				}

				@Override
				public void close() throws Exception {
					closer.close();
				}

			};
		}

	}

	@FunctionalInterface
	private interface Cycle {

		void run() throws Exception;

	}

	@FunctionalInterface
	private interface Closer {

		void close() throws Exception;

	}

}
