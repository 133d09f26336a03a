package io.github.distlock.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.management.ThreadMXBean;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

import org.apache.curator.drivers.AdvancedTracerDriver;
import org.apache.curator.drivers.EventTrace;
import org.apache.curator.drivers.OperationTrace;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.AsyncCallback.Children2Callback;
import org.apache.zookeeper.AsyncCallback.StringCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

import io.github.distlock.core.LockHandle;
import io.github.distlock.curator.CuratorLocks;

/**
 * Lock cycles per second on many keys (64 by default) against the server's own rate: how
 * much of one ZooKeeper server's capacity a lock cycle leaves unused. Five contenders,
 * each on its own session of the same in-process server:
 * <ul>
 * <li>{@code ceiling}: the least a lock cycle needs, sent by the raw ZooKeeper client
 * with no library around it: per key a chain that creates an ephemeral sequential node
 * (named as distlock's and Curator's protected lock nodes are) and, when the create is
 * answered, sends its delete and the next create back to back without waiting for the
 * delete, two requests a cycle;</li>
 * <li>{@code ceiling-read}: the same with the read a lock needs, a {@code getChildren} of
 * the key's queue sent right after each create (as distlock sends it), the delete sent
 * once the read is answered: three requests a cycle, still without a library;</li>
 * <li>{@code distlock}: one thread per key, {@code locks.mutex(key).acquire(..)} and
 * closing the handle;</li>
 * <li>{@code distlock-async}: one chain per key of {@code acquireAsync}, the handle
 * closed in the completion and the next acquisition started from there, no thread per key
 * (the shape of the ceiling's chains);</li>
 * <li>{@code raw-curator}: one thread per key, an {@link InterProcessMutex} per key.</li>
 * </ul>
 * Every contender has one cycle per key in flight, so each keeps the same number of keys
 * busy, and a cycle counts when its release is sent (distlock and the ceiling do not wait
 * for the delete's answer, Curator does). The contenders take turns in slices, in random
 * order within each round; after each slice the contender's session settles (one read
 * answered after everything it sent), outside the timed section. Each round gives each
 * contender's rate as a fraction of the ceiling's in that round; the report is their
 * median and range over the rounds, with the requests per cycle counted by the server
 * ({@code srvr}), the operations per cycle seen by Curator's tracer, and the CPU per
 * cycle and the context switches per cycle (hand-offs) of each group of threads.
 * <p>
 * {@code java -jar benchmarks/target/benchmarks.jar ceiling [contender...]}; system
 * properties {@code bench.keys} (64), {@code bench.rounds} (20),
 * {@code bench.warmupRounds} (2), {@code bench.sliceMillis} (1 000).
 */
final class ServerCeiling {

	static final String CEILING = "ceiling";

	static final String CEILING_READ = "ceiling-read";

	static final String DISTLOCK_ASYNC = "distlock-async";

	static final List<String> CONTENDERS = List.of(CEILING, CEILING_READ, DistlockContender.NAME, DISTLOCK_ASYNC,
			RawCuratorContender.NAME);

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private static final String CALLER_PREFIX = "keys-caller-";

	private static final byte[] NO_DATA = new byte[0];

	private ServerCeiling() {
	}

	static void main(String[] args) throws Exception {
		int keys = Integer.getInteger("bench.keys", 64);
		int rounds = Integer.getInteger("bench.rounds", 20);
		int warmup = Integer.getInteger("bench.warmupRounds", 2);
		long sliceMillis = Long.getLong("bench.sliceMillis", 1_000);
		List<String> names = (args.length > 0) ? List.of(args) : CONTENDERS;
		System.setProperty("zookeeper.forceSync", "no");
		System.setProperty("zookeeper.admin.enableServer", "false");
		System.setProperty("zookeeper.4lw.commands.whitelist", "srvr");
		try (TestingServer server = new TestingServer(true)) {
			System.setProperty(BenchmarkClients.CONNECT_PROPERTY, server.getConnectString());
			System.out.printf(Locale.ROOT,
					"%s; load average %s; %d keys, %d rounds of %d ms slices (after %d rounds of warm-up); "
							+ "ZooKeeper %s, in-process, fsync off; JVM %s, %d CPUs%n",
					ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), PairedOverhead.loadAverage(),
					keys, rounds, sliceMillis, warmup, org.apache.zookeeper.Version.getFullVersion(),
					System.getProperty("java.vm.version"), Runtime.getRuntime().availableProcessors());
			int srvrRequests = PairedOverhead.srvrRequests(server.getPort());
			Map<String, Contender> contenders = new LinkedHashMap<>();
			try {
				for (String name : names) {
					contenders.put(name, create(name, keys));
				}
				Map<String, Totals> totals = new LinkedHashMap<>();
				contenders.keySet().forEach((name) -> totals.put(name, new Totals(rounds)));
				for (int round = -warmup; round < rounds; round++) {
					List<String> order = new ArrayList<>(contenders.keySet());
					Collections.shuffle(order, ThreadLocalRandom.current());
					StringBuilder line = new StringBuilder((round < 0) ? "warm-up" : "round " + (round + 1));
					for (String name : order) {
						Contender contender = contenders.get(name);
						Operations operations = contender.operations();
						if (operations != null) {
							operations.recording = round >= 0;
						}
						long received = PairedOverhead.received(server.getPort());
						Map<Long, Long> cpuBefore = PairedOverhead.threadCpu();
						Map<String, Long> switchesBefore = switches();
						Slice slice = contender.slice(sliceMillis);
						Map<String, Long> switchesAfter = switches();
						Map<Long, Long> cpuAfter = PairedOverhead.threadCpu();
						contender.settle();
						long requests = PairedOverhead.received(server.getPort()) - received - srvrRequests - 1;
						if (operations != null) {
							operations.recording = false;
						}
						line.append(String.format(Locale.ROOT, "  %s %.0f/s", name, slice.rate()));
						if (round >= 0) {
							totals.get(name).add(round, slice, requests, cpuBefore, cpuAfter);
							totals.get(name).addSwitches(switchesBefore, switchesAfter);
						}
					}
					System.out.println(line);
				}
				report(contenders, totals);
			}
			finally {
				for (Contender contender : contenders.values()) {
					contender.close();
				}
			}
			System.out.printf(Locale.ROOT, "load average at the end: %s%n", PairedOverhead.loadAverage());
		}
	}

	private static void report(Map<String, Contender> contenders, Map<String, Totals> totals) {
		Totals ceiling = totals.get(CEILING);
		System.out.println();
		System.out.println("| contender | cycles/s (mean of slices) | × ceiling, median (range) | × ceiling, "
				+ "geometric mean | requests per cycle (srvr) |");
		System.out.println("|---|---:|---:|---:|---:|");
		for (Map.Entry<String, Totals> entry : totals.entrySet()) {
			Totals own = entry.getValue();
			String ratio = "";
			String geometric = "";
			if (ceiling != null) {
				double[] ratios = new double[own.rates.length];
				for (int i = 0; i < ratios.length; i++) {
					ratios[i] = own.rates[i] / ceiling.rates[i];
				}
				Arrays.sort(ratios);
				double median = (ratios.length % 2 == 1) ? ratios[ratios.length / 2]
						: (ratios[ratios.length / 2 - 1] + ratios[ratios.length / 2]) / 2;
				ratio = String.format(Locale.ROOT, "%.3f (%.3f–%.3f)", median, ratios[0], ratios[ratios.length - 1]);
				geometric = String.format(Locale.ROOT, "%.3f",
						Math.exp(Arrays.stream(ratios).map(Math::log).average().orElseThrow()));
			}
			System.out.printf(Locale.ROOT, "| %s | %.0f | %s | %s | %.2f |%n", entry.getKey(),
					Arrays.stream(own.rates).average().orElseThrow(), ratio, geometric,
					(double) own.requests / own.cycles);
		}
		System.out.println();
		System.out.println("Operations per cycle (Curator's tracer; the ceiling sends create and delete only):");
		for (Map.Entry<String, Contender> entry : contenders.entrySet()) {
			Operations operations = entry.getValue().operations();
			if (operations == null) {
				continue;
			}
			long cycles = totals.get(entry.getKey()).cycles;
			StringBuilder line = new StringBuilder("  " + entry.getKey() + ":");
			new TreeMap<>(operations.counts).forEach((name, count) -> line
				.append(String.format(Locale.ROOT, " %s %.3f", name, count.sum() / (double) cycles)));
			System.out.println(line);
		}
		System.out.println();
		System.out.println("Context switches per cycle by group of threads (/proc; a blocked thread woken):");
		List<String> switchGroups = totals.values()
			.stream()
			.flatMap((t) -> t.switches.keySet().stream())
			.distinct()
			.sorted()
			.toList();
		System.out.println("| contender | " + String.join(" | ", switchGroups) + " | all |");
		System.out.println("|---|" + "---:|".repeat(switchGroups.size() + 1));
		for (Map.Entry<String, Totals> entry : totals.entrySet()) {
			Totals own = entry.getValue();
			StringBuilder line = new StringBuilder("| " + entry.getKey() + " |");
			long all = 0;
			for (String group : switchGroups) {
				long count = own.switches.getOrDefault(group, 0L);
				all += count;
				line.append(String.format(Locale.ROOT, " %.2f |", count / (double) own.cycles));
			}
			line.append(String.format(Locale.ROOT, " %.2f |", all / (double) own.cycles));
			System.out.println(line);
		}
		System.out.println();
		System.out.println("CPU per cycle by group of threads, µs (callers: the contender's own threads):");
		List<String> groups = totals.values()
			.stream()
			.flatMap((t) -> t.cpu.keySet().stream())
			.distinct()
			.sorted()
			.toList();
		System.out.println("| contender | " + String.join(" | ", groups) + " | all |");
		System.out.println("|---|" + "---:|".repeat(groups.size() + 1));
		for (Map.Entry<String, Totals> entry : totals.entrySet()) {
			Totals own = entry.getValue();
			StringBuilder line = new StringBuilder("| " + entry.getKey() + " |");
			long all = 0;
			for (String group : groups) {
				long nanos = own.cpu.getOrDefault(group, 0L);
				all += nanos;
				line.append(String.format(Locale.ROOT, " %.1f |", nanos / 1e3 / own.cycles));
			}
			line.append(String.format(Locale.ROOT, " %.1f |", all / 1e3 / own.cycles));
			System.out.println(line);
		}
	}

	/**
	 * Context switches of every thread of the process, by thread ("tid name"), from
	 * {@code /proc}: each time a thread blocks for want of work and is woken again counts
	 * one, so their number per cycle counts the hand-offs between threads. Empty where
	 * there is no {@code /proc}.
	 */
	static Map<String, Long> switches() {
		Map<String, Long> switches = new TreeMap<>();
		try (var tasks = Files.list(Path.of("/proc/self/task"))) {
			for (Path task : tasks.toList()) {
				try {
					String name = Files.readString(task.resolve("comm")).trim();
					long count = 0;
					for (String line : Files.readAllLines(task.resolve("status"))) {
						if (line.startsWith("voluntary_ctxt_switches:")
								|| line.startsWith("nonvoluntary_ctxt_switches:")) {
							count += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
						}
					}
					switches.put(task.getFileName() + " " + name, count);
				}
				catch (IOException | RuntimeException ex) {
					// The thread ended while it was read.
				}
			}
		}
		catch (IOException ex) {
			return Map.of();
		}
		return switches;
	}

	/** The calling thread's context switches so far, from {@code /proc}; 0 without it. */
	static long ownSwitches() {
		try {
			long count = 0;
			for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
				if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
					count += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
				}
			}
			return count;
		}
		catch (IOException | RuntimeException ex) {
			return 0;
		}
	}

	static String switchGroup(String thread) {
		String name = thread.substring(thread.indexOf(' ') + 1);
		if (name.startsWith(CALLER_PREFIX.substring(0, 10))) {
			return "callers";
		}
		if (name.contains("SendThread") || name.contains("EventThrea")) {
			return "zk-client";
		}
		if (name.startsWith("distlock-")) {
			return "distlock";
		}
		if (name.startsWith("Curator-")) {
			return "curator";
		}
		if (name.startsWith("NIOServerCxn") || name.startsWith("NIOWorkerThrea") || name.startsWith("SyncThread")
				|| name.startsWith("ProcessThread") || name.startsWith("CommitProc")
				|| name.startsWith("SessionTracker") || name.startsWith("RequestThrottl")) {
			return "zk-server";
		}
		return "other";
	}

	private static Contender create(String name, int keys) throws Exception {
		return switch (name) {
			case CEILING -> new Ceiling(keys, false);
			case CEILING_READ -> new Ceiling(keys, true);
			case DistlockContender.NAME -> distlock(keys);
			case DISTLOCK_ASYNC -> new DistlockAsync(keys);
			case RawCuratorContender.NAME -> curator(keys);
			default -> throw new IllegalArgumentException("Unknown contender '" + name + "'");
		};
	}

	private static Contender distlock(int keys) {
		DistlockContender distlock = new DistlockContender();
		return new Threaded(keys, distlock.client(), distlock::close, (key) -> distlock.cycle("k" + key));
	}

	private static Contender curator(int keys) {
		CuratorFramework client = BenchmarkClients.start();
		InterProcessMutex[] mutexes = new InterProcessMutex[keys];
		for (int i = 0; i < keys; i++) {
			mutexes[i] = new InterProcessMutex(client, "/raw-keys/k" + i);
		}
		return new Threaded(keys, client, client::close, (key) -> {
			if (!mutexes[key].acquire(MutexContender.WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
				throw MutexContender.notAcquired("k" + key);
			}
			mutexes[key].release();
		});
	}

	/** What one slice did: its cycles, its time, and the CPU of its own threads. */
	record Slice(long cycles, long nanos, long callerCpu, long callerSwitches) {

		double rate() {
			return this.cycles / (this.nanos / 1e9);
		}

	}

	/** The measured rounds of one contender. */
	private static final class Totals {

		final double[] rates;

		long cycles;

		long requests;

		final Map<String, Long> cpu = new TreeMap<>();

		final Map<String, Long> switches = new TreeMap<>();

		Totals(int rounds) {
			this.rates = new double[rounds];
		}

		void add(int round, Slice slice, long requests, Map<Long, Long> before, Map<Long, Long> after) {
			this.rates[round] = slice.rate();
			this.cycles += slice.cycles();
			this.requests += requests;
			this.cpu.merge("callers", slice.callerCpu(), Long::sum);
			this.switches.merge("callers", slice.callerSwitches(), Long::sum);
			for (Map.Entry<Long, Long> entry : after.entrySet()) {
				String name = threadName(entry.getKey());
				if (name == null || name.startsWith(CALLER_PREFIX)) {
					continue;
				}
				long delta = entry.getValue() - before.getOrDefault(entry.getKey(), 0L);
				this.cpu.merge(PairedOverhead.group(entry.getKey(), -1), delta, Long::sum);
			}
		}

		void addSwitches(Map<String, Long> before, Map<String, Long> after) {
			for (Map.Entry<String, Long> entry : after.entrySet()) {
				// Callers count their own, as they end before the snapshot.
				String group = switchGroup(entry.getKey());
				if (!group.equals("callers")) {
					long delta = entry.getValue() - before.getOrDefault(entry.getKey(), 0L);
					this.switches.merge(group, delta, Long::sum);
				}
			}
		}

		private static String threadName(long id) {
			var info = THREADS.getThreadInfo(id);
			return (info != null) ? info.getThreadName() : null;
		}

	}

	/** One contender: its cycles on all keys for one slice, on its own session. */
	private abstract static class Contender implements AutoCloseable {

		final CuratorFramework client;

		private final Operations operations;

		Contender(CuratorFramework client, boolean traced) {
			this.client = client;
			this.operations = traced ? new Operations() : null;
			if (traced) {
				client.getZookeeperClient().setTracerDriver(this.operations);
			}
		}

		abstract Slice slice(long millis) throws Exception;

		Operations operations() {
			return this.operations;
		}

		void settle() throws Exception {
			this.client.getZookeeperClient().getZooKeeper().exists("/", false);
		}

	}

	/** A thread per key, each cycling on its key until the slice's end. */
	private static final class Threaded extends Contender {

		private final int keys;

		private final Closer closer;

		private final KeyCycle cycle;

		Threaded(int keys, CuratorFramework client, Closer closer, KeyCycle cycle) {
			super(client, true);
			this.keys = keys;
			this.closer = closer;
			this.cycle = cycle;
		}

		@Override
		Slice slice(long millis) throws Exception {
			LongAdder done = new LongAdder();
			LongAdder cpu = new LongAdder();
			LongAdder switches = new LongAdder();
			AtomicReference<Exception> failure = new AtomicReference<>();
			CountDownLatch go = new CountDownLatch(1);
			CountDownLatch finished = new CountDownLatch(this.keys);
			long[] deadline = new long[1];
			List<Thread> threads = new ArrayList<>(this.keys);
			for (int k = 0; k < this.keys; k++) {
				int key = k;
				Thread thread = new Thread(() -> {
					try {
						go.await();
						long end = deadline[0];
						while (System.nanoTime() - end < 0) {
							this.cycle.run(key);
							done.increment();
						}
					}
					catch (Exception ex) {
						failure.compareAndSet(null, ex);
					}
					finally {
						cpu.add(THREADS.getCurrentThreadCpuTime());
						switches.add(ownSwitches());
						finished.countDown();
					}
				}, CALLER_PREFIX + k);
				threads.add(thread);
				thread.start();
			}
			long start = System.nanoTime();
			deadline[0] = start + TimeUnit.MILLISECONDS.toNanos(millis);
			go.countDown();
			finished.await();
			long nanos = System.nanoTime() - start;
			if (failure.get() != null) {
				throw new IllegalStateException("A cycle failed", failure.get());
			}
			for (Thread thread : threads) {
				thread.join();
			}
			return new Slice(done.sum(), nanos, cpu.sum(), switches.sum());
		}

		@Override
		public void close() throws Exception {
			this.closer.close();
		}

	}

	/**
	 * The server's own rate: per key a chain of create, then (once answered) delete and
	 * the next create sent back to back, on the raw ZooKeeper client.
	 */
	private static final class Ceiling extends Contender {

		private final int keys;

		private final ZooKeeper zooKeeper;

		private final String[] prefixes;

		private final boolean read;

		Ceiling(int keys, boolean read) throws Exception {
			super(BenchmarkClients.start(), false);
			this.keys = keys;
			this.read = read;
			this.zooKeeper = this.client.getZookeeperClient().getZooKeeper();
			this.prefixes = new String[keys];
			for (int i = 0; i < keys; i++) {
				String parent = (read ? "/ceiling-read/k" : "/ceiling/k") + i;
				if (this.client.checkExists().forPath(parent) == null) {
					this.client.create().creatingParentsIfNeeded().forPath(parent);
				}
				// A protected lock node's name: "_c_", a UUID, "-lock-", the sequence.
				this.prefixes[i] = "/" + BenchmarkClients.NAMESPACE + parent + "/_c_" + UUID.randomUUID() + "-lock-";
			}
		}

		@Override
		Slice slice(long millis) throws Exception {
			LongAdder done = new LongAdder();
			AtomicReference<String> failure = new AtomicReference<>();
			CountDownLatch finished = new CountDownLatch(this.keys);
			long start = System.nanoTime();
			long deadline = start + TimeUnit.MILLISECONDS.toNanos(millis);
			for (int k = 0; k < this.keys; k++) {
				new Chain(this.prefixes[k], deadline, done, failure, finished).next();
			}
			finished.await();
			long nanos = System.nanoTime() - start;
			if (failure.get() != null) {
				throw new IllegalStateException("The ceiling's chain failed: " + failure.get());
			}
			return new Slice(done.sum(), nanos, 0, 0);
		}

		/** One key's cycles: create (and read), then delete and the next cycle. */
		private final class Chain implements StringCallback, Children2Callback {

			private final String prefix;

			private final String parent;

			private final long deadline;

			private final LongAdder done;

			private final AtomicReference<String> failure;

			private final CountDownLatch finished;

			private String node;

			Chain(String prefix, long deadline, LongAdder done, AtomicReference<String> failure,
					CountDownLatch finished) {
				this.prefix = prefix;
				this.parent = prefix.substring(0, prefix.lastIndexOf('/'));
				this.deadline = deadline;
				this.done = done;
				this.failure = failure;
				this.finished = finished;
			}

			void next() {
				Ceiling.this.zooKeeper.create(this.prefix, NO_DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE,
						CreateMode.EPHEMERAL_SEQUENTIAL, this, null);
				if (Ceiling.this.read) {
					Ceiling.this.zooKeeper.getChildren(this.parent, false, this, null);
				}
			}

			@Override
			public void processResult(int rc, String path, Object ctx, String name) {
				if (rc != KeeperException.Code.OK.intValue()) {
					fail("create " + path + ": " + KeeperException.Code.get(rc));
					return;
				}
				this.node = name;
				if (!Ceiling.this.read) {
					released();
				}
			}

			@Override
			public void processResult(int rc, String path, Object ctx, List<String> children,
					org.apache.zookeeper.data.Stat stat) {
				if (rc != KeeperException.Code.OK.intValue() || this.node == null) {
					fail("getChildren " + path + ": " + KeeperException.Code.get(rc));
					return;
				}
				released();
			}

			private void released() {
				Ceiling.this.zooKeeper.delete(this.node, -1, (rc, path, ctx) -> {
					if (rc != KeeperException.Code.OK.intValue()) {
						this.failure.compareAndSet(null, "delete " + path + ": " + KeeperException.Code.get(rc));
					}
				}, null);
				this.node = null;
				this.done.increment();
				if (System.nanoTime() - this.deadline < 0) {
					next();
				}
				else {
					this.finished.countDown();
				}
			}

			private void fail(String what) {
				this.failure.compareAndSet(null, what);
				this.finished.countDown();
			}

		}

		@Override
		public void close() {
			this.client.close();
		}

	}

	/** distlock's {@code acquireAsync}: per key a chain, no thread per key. */
	private static final class DistlockAsync extends Contender {

		private final int keys;

		private final CuratorLocks locks;

		DistlockAsync(int keys) {
			this(keys,
					CuratorLocks.builder(BenchmarkClients.start())
						.defaultWaitTime(MutexContender.WAIT)
						.applicationName("benchmarks")
						.build());
		}

		private DistlockAsync(int keys, CuratorLocks locks) {
			super(locks.client(), true);
			this.keys = keys;
			this.locks = locks;
		}

		@Override
		Slice slice(long millis) throws Exception {
			LongAdder done = new LongAdder();
			AtomicReference<Throwable> failure = new AtomicReference<>();
			CountDownLatch finished = new CountDownLatch(this.keys);
			long start = System.nanoTime();
			long deadline = start + TimeUnit.MILLISECONDS.toNanos(millis);
			for (int k = 0; k < this.keys; k++) {
				loop("k" + k, deadline, done, failure, finished);
			}
			finished.await();
			long nanos = System.nanoTime() - start;
			if (failure.get() != null) {
				throw new IllegalStateException("A cycle failed", failure.get());
			}
			return new Slice(done.sum(), nanos, 0, 0);
		}

		private void loop(String key, long deadline, LongAdder done, AtomicReference<Throwable> failure,
				CountDownLatch finished) {
			CompletableFuture<LockHandle> acquired = this.locks.mutex(key).acquireAsync(MutexContender.WAIT);
			acquired.whenComplete((handle, ex) -> {
				if (ex != null) {
					failure.compareAndSet(null, ex);
					finished.countDown();
					return;
				}
				handle.close();
				done.increment();
				if (System.nanoTime() - deadline < 0) {
					loop(key, deadline, done, failure, finished);
				}
				else {
					finished.countDown();
				}
			});
		}

		@Override
		public void close() {
			this.locks.close();
			this.locks.client().close();
		}

	}

	/** Counts the operations Curator traces, by name, while recording. */
	private static final class Operations extends AdvancedTracerDriver {

		volatile boolean recording;

		final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

		@Override
		public void addTrace(OperationTrace trace) {
			if (this.recording) {
				this.counts.computeIfAbsent(trace.getName(), (name) -> new LongAdder()).increment();
			}
		}

		@Override
		public void addEvent(EventTrace trace) {
			if (this.recording) {
				this.counts.computeIfAbsent("event " + trace.getName(), (name) -> new LongAdder()).increment();
			}
		}

	}

	@FunctionalInterface
	private interface KeyCycle {

		void run(int key) throws Exception;

	}

	@FunctionalInterface
	private interface Closer {

		void close() throws Exception;

	}

}
