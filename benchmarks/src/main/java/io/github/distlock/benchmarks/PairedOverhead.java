package io.github.distlock.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

import org.apache.curator.test.TestingServer;

/**
 * The overhead of {@code @DistributedLock} over raw Curator on the uncontended cycle,
 * measured in pairs. JMH runs one contender after the other, so a slow drift of
 * ZooKeeper's latency (its log, the JIT, the machine's load) lands on one contender only,
 * and the run-to-run noise of a ZooKeeper round trip hides a difference of a few percent.
 * Here one thread alternates a raw Curator cycle and an annotated cycle against the same
 * server, in random order within each pair, so drift cancels out; the overhead is the
 * mean of the per-pair differences, with its 99% confidence interval. It also prints the
 * ZooKeeper requests each contender makes per cycle (counted by the server) and the CPU
 * time of the calling thread per cycle, which tell extra round trips from extra work in
 * the JVM.
 * <p>
 * {@code java -jar benchmarks/target/benchmarks.jar paired [baseline [candidate]]}, by
 * default {@code raw-curator distlock-annotation} (system properties {@code bench.pairs},
 * default 20 000, and {@code bench.warmupPairs}, default 3 000).
 */
final class PairedOverhead {

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private PairedOverhead() {
	}

	static void main(String[] args) throws Exception {
		int pairs = Integer.getInteger("bench.pairs", 20_000);
		int warmup = Integer.getInteger("bench.warmupPairs", 3_000);
		System.setProperty("zookeeper.forceSync", "no");
		System.setProperty("zookeeper.admin.enableServer", "false");
		System.setProperty("zookeeper.4lw.commands.whitelist", "srvr");
		try (TestingServer server = new TestingServer(true)) {
			System.setProperty(BenchmarkClients.CONNECT_PROPERTY, server.getConnectString());
			String baseline = (args.length > 0) ? args[0] : RawCuratorContender.NAME;
			String candidate = (args.length > 1) ? args[1] : AnnotationContender.NAME;
			try (MutexContender raw = MutexContender.create(baseline);
					MutexContender annotated = MutexContender.create(candidate)) {
				System.out.printf("ZooKeeper requests per cycle: %s %.2f, %s %.2f%n", baseline,
						requestsPerCycle(server, raw), candidate, requestsPerCycle(server, annotated));
				run(raw, annotated, warmup);
				long[][] times = run(raw, annotated, pairs);
				report(baseline, times[0], candidate, times[1]);
				System.out.printf("cpu of the calling thread per cycle: %s mean %.1f us, %s mean %.1f us%n", baseline,
						Arrays.stream(times[2]).average().orElseThrow() / 1000, candidate,
						Arrays.stream(times[3]).average().orElseThrow() / 1000);
			}
		}
	}

	private static long[][] run(MutexContender raw, MutexContender annotated, int pairs) throws Exception {
		long[] rawTimes = new long[pairs];
		long[] annotatedTimes = new long[pairs];
		long[] rawCpu = new long[pairs];
		long[] annotatedCpu = new long[pairs];
		for (int i = 0; i < pairs; i++) {
			if (ThreadLocalRandom.current().nextBoolean()) {
				rawTimes[i] = time(raw, rawCpu, i);
				annotatedTimes[i] = time(annotated, annotatedCpu, i);
			}
			else {
				annotatedTimes[i] = time(annotated, annotatedCpu, i);
				rawTimes[i] = time(raw, rawCpu, i);
			}
		}
		return new long[][] { rawTimes, annotatedTimes, rawCpu, annotatedCpu };
	}

	/**
	 * Count the requests the server receives during 1 000 cycles, from its {@code srvr}
	 * command (which is itself one request).
	 */
	private static double requestsPerCycle(TestingServer server, MutexContender contender) throws Exception {
		contender.cycle("paired");
		long before = received(server.getPort());
		for (int i = 0; i < 1_000; i++) {
			contender.cycle("paired");
		}
		return (received(server.getPort()) - before - 1) / 1_000.0;
	}

	private static long received(int port) throws IOException {
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

	private static long time(MutexContender contender, long[] cpu, int i) throws Exception {
		long cpuStart = THREADS.getCurrentThreadCpuTime();
		long start = System.nanoTime();
		contender.cycle("paired");
		long elapsed = System.nanoTime() - start;
		cpu[i] = THREADS.getCurrentThreadCpuTime() - cpuStart;
		return elapsed;
	}

	private static void report(String baseline, long[] raw, String candidate, long[] annotated) {
		int n = raw.length;
		double rawMean = Arrays.stream(raw).average().orElseThrow();
		double annotatedMean = Arrays.stream(annotated).average().orElseThrow();
		double[] differences = new double[n];
		for (int i = 0; i < n; i++) {
			differences[i] = annotated[i] - raw[i];
		}
		double meanDifference = Arrays.stream(differences).average().orElseThrow();
		double variance = Arrays.stream(differences).map((d) -> (d - meanDifference) * (d - meanDifference)).sum()
				/ (n - 1);
		double halfWidth = 2.576 * Math.sqrt(variance / n);
		long[] sortedRaw = raw.clone();
		long[] sortedAnnotated = annotated.clone();
		Arrays.sort(sortedRaw);
		Arrays.sort(sortedAnnotated);
		System.out.printf("paired uncontended cycles: %d pairs, one thread, random order within each pair%n", n);
		System.out.printf("%-20s: mean %.1f us, median %.1f us%n", baseline, rawMean / 1000, sortedRaw[n / 2] / 1000.0);
		System.out.printf("%-20s: mean %.1f us, median %.1f us%n", candidate, annotatedMean / 1000,
				sortedAnnotated[n / 2] / 1000.0);
		System.out.printf("overhead per cycle  : %.1f us (99%% CI %.1f .. %.1f us)%n", meanDifference / 1000,
				(meanDifference - halfWidth) / 1000, (meanDifference + halfWidth) / 1000);
		System.out.printf("time ratio          : %.3fx (99%% CI %.3f .. %.3f), medians %.3fx%n",
				annotatedMean / rawMean, 1 + (meanDifference - halfWidth) / rawMean,
				1 + (meanDifference + halfWidth) / rawMean, (double) sortedAnnotated[n / 2] / sortedRaw[n / 2]);
	}

}
