package io.github.distlock.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;

import io.github.distlock.relay.TcpRelay;

/**
 * The time of {@code @DistributedLock}'s uncontended cycle against raw Curator's,
 * measured in pairs. JMH runs one contender after the other, so a slow drift of
 * ZooKeeper's latency (its log, the JIT, the machine's load) lands on one contender only,
 * and the run-to-run noise of a ZooKeeper round trip hides a difference of a few percent.
 * Here one thread alternates a baseline cycle and a candidate cycle against the same
 * server, in random order within each pair, so drift cancels out; the difference is the
 * mean of the per-pair differences, with its 99% confidence interval.
 * <p>
 * <b>Fairness.</b> distlock does not wait for its release (the delete is sent, ZooKeeper
 * answers it later): without care, the server would still be working on that delete while
 * the next, raw, cycle runs, and raw Curator would pay for it. So after <em>every</em>
 * cycle of either contender, outside the timed section, the contender's session sends one
 * read and waits for its answer ({@link MutexContender#settle()}): ZooKeeper answers a
 * session's requests in order, so the answer comes after the delete's. Each timed cycle
 * starts on a server with nothing in flight, for both contenders alike.
 * <p>
 * Settings (system properties): {@code bench.pairs} (20 000), {@code bench.warmupPairs}
 * (3 000), {@code bench.fsync} (false: {@code zookeeper.forceSync}),
 * {@code bench.dataDir} (where the server's data directory is created, by default the
 * temporary directory; it must be on the disk to be measured when fsync is on),
 * {@code bench.relayMicros} (absent: the clients connect to the server directly; a
 * number: through a {@link TcpRelay} that adds that many microseconds each way, 0 only
 * forwarding, whose tap ({@link ZooKeeperTraffic}) times the server's answers),
 * {@code bench.soloCycles} (3 000: cycles of each contender alone, for the CPU
 * breakdown).
 * <p>
 * Printed: the setting (with the machine's load average), the relay's measured added
 * round trip, ZooKeeper requests per cycle (counted by the server, {@code srvr}), the
 * paired times and their ratio, the calling thread's CPU per cycle and, from cycles of
 * each contender alone, the CPU per cycle of every group of threads (caller, ZooKeeper
 * client, Curator, distlock, server, relay); through a relay, also per contender and per
 * kind of request the server's answer times.
 * <p>
 * {@code java -jar benchmarks/target/benchmarks.jar paired [baseline [candidate]]}, by
 * default {@code raw-curator distlock-annotation}.
 */
final class PairedOverhead {

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private static final String KEY = "paired";

	private PairedOverhead() {
	}

	static void main(String[] args) throws Exception {
		int pairs = Integer.getInteger("bench.pairs", 20_000);
		int warmup = Integer.getInteger("bench.warmupPairs", 3_000);
		int solo = Integer.getInteger("bench.soloCycles", 3_000);
		boolean fsync = Boolean.getBoolean("bench.fsync");
		Long relayMicros = Long.getLong("bench.relayMicros");
		System.setProperty("zookeeper.forceSync", fsync ? "yes" : "no");
		System.setProperty("zookeeper.admin.enableServer", "false");
		System.setProperty("zookeeper.4lw.commands.whitelist", "srvr");
		Path dataParent = Path.of(System.getProperty("bench.dataDir", System.getProperty("java.io.tmpdir")));
		Files.createDirectories(dataParent);
		Path dataDir = Files.createTempDirectory(dataParent, "paired-zk-");
		String baseline = (args.length > 0) ? args[0] : RawCuratorContender.NAME;
		String candidateName = (args.length > 1) ? args[1] : AnnotationContender.NAME;
		String candidate = candidateName.equals(baseline) ? candidateName + " (2)" : candidateName;
		ZooKeeperTraffic traffic = new ZooKeeperTraffic();
		try (TestingServer server = new TestingServer(-1, dataDir.toFile(), true);
				TcpRelay relay = (relayMicros != null) ? new TcpRelay(server.getPort(), traffic::connection) : null) {
			if (relay != null) {
				relay.setLatency(Duration.of(relayMicros, ChronoUnit.MICROS));
			}
			String connect = (relay != null) ? relay.getConnectString() : server.getConnectString();
			System.setProperty(BenchmarkClients.CONNECT_PROPERTY, connect);
			FileStore store = Files.getFileStore(dataDir);
			System.out.printf(Locale.ROOT, "%s; load average %s%n",
					ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), loadAverage());
			System.out.printf(Locale.ROOT, "ZooKeeper %s, fsync %s, data directory %s on %s (%s); %s%n",
					org.apache.zookeeper.Version.getFullVersion(), fsync ? "on" : "off", dataDir, store.name(),
					store.type(), (relay == null) ? "clients connect directly (loopback)"
							: "clients connect through a relay adding " + relayMicros + " us each way");
			if (relay != null) {
				measureRelay(server.getConnectString(), relay);
			}
			try (MutexContender first = MutexContender.create(baseline);
					MutexContender second = MutexContender.create(candidateName)) {
				List<Map.Entry<String, MutexContender>> contenders = List.of(Map.entry(baseline, first),
						Map.entry(candidate, second));
				int srvrRequests = srvrRequests(server.getPort());
				System.out.printf(Locale.ROOT,
						"ZooKeeper requests per cycle (srvr, without the settling read): %s %.2f, %s %.2f%n", baseline,
						requestsPerCycle(server.getPort(), srvrRequests, first), candidate,
						requestsPerCycle(server.getPort(), srvrRequests, second));
				run(first, second, warmup);
				traffic.startRecording();
				long[][] times = run(first, second, pairs);
				traffic.stopRecording();
				report(baseline, times[0], candidate, times[1]);
				System.out.printf(Locale.ROOT,
						"cpu of the calling thread per cycle: %s mean %.1f us, %s mean %.1f us%n", baseline,
						Arrays.stream(times[2]).average().orElseThrow() / 1000, candidate,
						Arrays.stream(times[3]).average().orElseThrow() / 1000);
				if (relay != null) {
					reportAnswers(traffic, contenders, pairs);
					System.out.println("relay: time each chunk was held while measuring: "
							+ String.join(", ", ZooKeeperTraffic.describe(traffic.held())));
				}
				if (solo > 0) {
					breakdown(contenders, solo);
				}
				if (relay != null && relayMicros == 0 && solo > 0) {
					// Last: it adds a listener to distlock's locks for good.
					CycleTimeline.run(traffic, contenders, KEY, solo);
				}
			}
			System.out.printf(Locale.ROOT, "load average at the end: %s%n", loadAverage());
		}
	}

	private static long[][] run(MutexContender first, MutexContender second, int pairs) throws Exception {
		long[] firstTimes = new long[pairs];
		long[] secondTimes = new long[pairs];
		long[] firstCpu = new long[pairs];
		long[] secondCpu = new long[pairs];
		for (int i = 0; i < pairs; i++) {
			if (ThreadLocalRandom.current().nextBoolean()) {
				firstTimes[i] = time(first, firstCpu, i);
				secondTimes[i] = time(second, secondCpu, i);
			}
			else {
				secondTimes[i] = time(second, secondCpu, i);
				firstTimes[i] = time(first, firstCpu, i);
			}
		}
		return new long[][] { firstTimes, secondTimes, firstCpu, secondCpu };
	}

	/** Time one cycle, then (untimed) wait until the server answered all it was sent. */
	private static long time(MutexContender contender, long[] cpu, int i) throws Exception {
		long cpuStart = THREADS.getCurrentThreadCpuTime();
		long start = System.nanoTime();
		contender.cycle(KEY);
		long elapsed = System.nanoTime() - start;
		cpu[i] = THREADS.getCurrentThreadCpuTime() - cpuStart;
		contender.settle();
		return elapsed;
	}

	/**
	 * Count the requests the server receives during 1 000 cycles, from its {@code srvr}
	 * command, less the settling read that waits for the last release.
	 */
	private static double requestsPerCycle(int port, int srvrRequests, MutexContender contender) throws Exception {
		contender.cycle(KEY);
		contender.settle();
		long before = received(port);
		for (int i = 0; i < 1_000; i++) {
			contender.cycle(KEY);
		}
		contender.settle();
		return (received(port) - before - srvrRequests - 1) / 1_000.0;
	}

	/** How many requests one {@code srvr} adds to the server's count. */
	static int srvrRequests(int port) throws IOException {
		long first = received(port);
		return (int) (received(port) - first);
	}

	static long received(int port) throws IOException {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
			socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
			String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
			return answer.lines()
				.filter((line) -> line.startsWith("Received:"))
				.mapToLong((line) -> Long.parseLong(line.substring("Received:".length()).trim()))
				.findFirst()
				.orElseThrow(() -> new IllegalStateException("Unexpected srvr answer: " + answer));
		}
	}

	private static void report(String baseline, long[] first, String candidate, long[] second) {
		int n = first.length;
		double firstMean = Arrays.stream(first).average().orElseThrow();
		double secondMean = Arrays.stream(second).average().orElseThrow();
		double[] differences = new double[n];
		for (int i = 0; i < n; i++) {
			differences[i] = second[i] - first[i];
		}
		double meanDifference = Arrays.stream(differences).average().orElseThrow();
		double variance = Arrays.stream(differences).map((d) -> (d - meanDifference) * (d - meanDifference)).sum()
				/ (n - 1);
		double halfWidth = 2.576 * Math.sqrt(variance / n);
		long[] sortedFirst = first.clone();
		long[] sortedSecond = second.clone();
		Arrays.sort(sortedFirst);
		Arrays.sort(sortedSecond);
		System.out.printf(Locale.ROOT,
				"paired uncontended cycles: %d pairs, one thread, random order within each pair, "
						+ "each cycle followed (untimed) by a read that waits for its release%n",
				n);
		System.out.printf(Locale.ROOT, "%-20s: mean %.1f us, median %.1f us, p99 %.1f us%n", baseline, firstMean / 1000,
				sortedFirst[n / 2] / 1000.0, ZooKeeperTraffic.percentile(sortedFirst, 0.99) / 1000.0);
		System.out.printf(Locale.ROOT, "%-20s: mean %.1f us, median %.1f us, p99 %.1f us%n", candidate,
				secondMean / 1000, sortedSecond[n / 2] / 1000.0,
				ZooKeeperTraffic.percentile(sortedSecond, 0.99) / 1000.0);
		System.out.printf(Locale.ROOT, "difference per cycle: %.1f us (99%% CI %.1f .. %.1f us)%n",
				meanDifference / 1000, (meanDifference - halfWidth) / 1000, (meanDifference + halfWidth) / 1000);
		System.out.printf(Locale.ROOT, "time ratio          : %.3fx (99%% CI %.3f .. %.3f), medians %.3fx%n",
				secondMean / firstMean, 1 + (meanDifference - halfWidth) / firstMean,
				1 + (meanDifference + halfWidth) / firstMean, (double) sortedSecond[n / 2] / sortedFirst[n / 2]);
	}

	/**
	 * What the relay adds to a round trip: a read through the relay against the same read
	 * sent directly, alternated, on two sessions of their own.
	 */
	private static void measureRelay(String direct, TcpRelay relay) throws Exception {
		CuratorFramework straight = BenchmarkClients.start(direct, BenchmarkClients.NAMESPACE);
		CuratorFramework relayed = BenchmarkClients.start(relay.getConnectString(), BenchmarkClients.NAMESPACE);
		try {
			int n = 3_000;
			long[] straightTimes = new long[n];
			long[] relayedTimes = new long[n];
			for (int i = 0; i < n + 500; i++) {
				long a = roundTrip(straight);
				long b = roundTrip(relayed);
				if (i >= 500) {
					straightTimes[i - 500] = a;
					relayedTimes[i - 500] = b;
				}
			}
			Arrays.sort(straightTimes);
			Arrays.sort(relayedTimes);
			System.out.printf(Locale.ROOT,
					"relay: a read's round trip direct mean %.0f us (median %d us), through the relay mean %.0f us "
							+ "(median %d us): the relay adds %.0f us (median %d us) per round trip (asked: %d us)%n",
					ZooKeeperTraffic.mean(straightTimes) / 1000, straightTimes[n / 2] / 1000,
					ZooKeeperTraffic.mean(relayedTimes) / 1000, relayedTimes[n / 2] / 1000,
					(ZooKeeperTraffic.mean(relayedTimes) - ZooKeeperTraffic.mean(straightTimes)) / 1000,
					(relayedTimes[n / 2] - straightTimes[n / 2]) / 1000, 2 * relay.getLatency().toNanos() / 1000);
		}
		finally {
			straight.close();
			relayed.close();
		}
	}

	private static long roundTrip(CuratorFramework client) throws Exception {
		long start = System.nanoTime();
		client.getZookeeperClient().getZooKeeper().exists("/", false);
		return System.nanoTime() - start;
	}

	/**
	 * Per contender and kind of request: how many the server got per cycle and how long
	 * it took to answer them, as the relay saw it (the settling reads are left out).
	 */
	private static void reportAnswers(ZooKeeperTraffic traffic, List<Map.Entry<String, MutexContender>> contenders,
			int pairs) throws Exception {
		System.out.println("server's answer times per kind of request, as the relay saw them "
				+ "(from the request's write to the server's socket to the answer's read from it):");
		for (Map.Entry<String, MutexContender> contender : contenders) {
			long session = contender.getValue().client().getZookeeperClient().getZooKeeper().getSessionId();
			traffic.answers(session).forEach((op, samples) -> {
				if (op.equals("exists") || op.equals("ping")) {
					return;
				}
				System.out.printf(Locale.ROOT, "  %-20s %-15s %.2f per cycle, %s%n", contender.getKey(), op,
						samples.length / (double) pairs, String.join(", ", ZooKeeperTraffic.describe(samples)));
			});
		}
	}

	/**
	 * Cycles of each contender alone (each followed by its settling read, untimed but
	 * counted: it is the same for both), twice in alternation: the CPU time of every
	 * group of threads per cycle, and the time per cycle.
	 */
	private static void breakdown(List<Map.Entry<String, MutexContender>> contenders, int cycles) throws Exception {
		Map<String, Map<String, Long>> cpu = new LinkedHashMap<>();
		Map<String, Long> wall = new LinkedHashMap<>();
		Map<String, Long> process = new LinkedHashMap<>();
		for (int round = 0; round < 2; round++) {
			for (Map.Entry<String, MutexContender> contender : contenders) {
				Map<Long, Long> before = threadCpu();
				long processBefore = processCpu();
				long start = System.nanoTime();
				for (int i = 0; i < cycles / 2; i++) {
					contender.getValue().cycle(KEY);
					contender.getValue().settle();
				}
				wall.merge(contender.getKey(), System.nanoTime() - start, Long::sum);
				process.merge(contender.getKey(), processCpu() - processBefore, Long::sum);
				Map<Long, Long> after = threadCpu();
				Map<String, Long> groups = cpu.computeIfAbsent(contender.getKey(), (k) -> new TreeMap<>());
				long caller = Thread.currentThread().getId();
				after.forEach((id, time) -> {
					long used = time - before.getOrDefault(id, 0L);
					if (used > 0) {
						groups.merge(group(id, caller), used, Long::sum);
					}
				});
			}
		}
		int total = 2 * (cycles / 2);
		System.out.printf(Locale.ROOT,
				"alone, %d cycles each, each with its settling read: time and CPU per cycle (us) by thread group%n",
				total);
		for (String name : cpu.keySet()) {
			StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-20s wall %.1f, process cpu %.1f:",
					name, wall.get(name) / 1000.0 / total, process.get(name) / 1000.0 / total));
			cpu.get(name)
				.forEach((group, time) -> line
					.append(String.format(Locale.ROOT, " %s %.1f", group, time / 1000.0 / total)));
			System.out.println(line);
		}
	}

	static Map<Long, Long> threadCpu() {
		Map<Long, Long> times = new TreeMap<>();
		for (long id : THREADS.getAllThreadIds()) {
			long time = THREADS.getThreadCpuTime(id);
			if (time >= 0) {
				times.put(id, time);
			}
		}
		return times;
	}

	static String group(long id, long caller) {
		if (id == caller) {
			return "caller";
		}
		var info = THREADS.getThreadInfo(id);
		String name = (info != null) ? info.getThreadName() : "?";
		if (name.contains("-SendThread(") || name.contains("-EventThread")) {
			return "zk-client";
		}
		if (name.startsWith("Curator-")) {
			return "curator";
		}
		if (name.startsWith("distlock-")) {
			return "distlock";
		}
		if (name.startsWith("ForkJoinPool")) {
			return "fork-join";
		}
		if (name.startsWith("relay-")) {
			return "relay";
		}
		if (name.startsWith("NIOServerCxn") || name.startsWith("NIOWorkerThread") || name.startsWith("SyncThread")
				|| name.startsWith("ProcessThread") || name.startsWith("CommitProc")
				|| name.startsWith("SessionTracker") || name.startsWith("RequestThrottler")
				|| name.startsWith("ConnnectionExpirer") || name.startsWith("ConnectionExpirer")) {
			return "zk-server";
		}
		return "other";
	}

	private static long processCpu() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getProcessCpuTime();
		}
		return 0;
	}

	static String loadAverage() {
		try {
			String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
			return fields[0] + " " + fields[1] + " " + fields[2];
		}
		catch (IOException ex) {
			return String.format(Locale.ROOT, "%.2f",
					ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
		}
	}

}
