package io.github.distlock.benchmarks;

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
 * mean of the per-pair differences, with its 99% confidence interval.
 * <p>
 * {@code java -jar benchmarks/target/benchmarks.jar paired [baseline [candidate]]}, by
 * default {@code raw-curator distlock-annotation} (system properties {@code bench.pairs},
 * default 20 000, and {@code bench.warmupPairs}, default 3 000).
 */
final class PairedOverhead {

	private PairedOverhead() {
	}

	static void main(String[] args) throws Exception {
		int pairs = Integer.getInteger("bench.pairs", 20_000);
		int warmup = Integer.getInteger("bench.warmupPairs", 3_000);
		System.setProperty("zookeeper.forceSync", "no");
		System.setProperty("zookeeper.admin.enableServer", "false");
		try (TestingServer server = new TestingServer(true)) {
			System.setProperty(BenchmarkClients.CONNECT_PROPERTY, server.getConnectString());
			String baseline = (args.length > 0) ? args[0] : RawCuratorContender.NAME;
			String candidate = (args.length > 1) ? args[1] : AnnotationContender.NAME;
			try (MutexContender raw = MutexContender.create(baseline);
					MutexContender annotated = MutexContender.create(candidate)) {
				run(raw, annotated, warmup);
				long[][] times = run(raw, annotated, pairs);
				report(baseline, times[0], candidate, times[1]);
			}
		}
	}

	private static long[][] run(MutexContender raw, MutexContender annotated, int pairs) throws Exception {
		long[] rawTimes = new long[pairs];
		long[] annotatedTimes = new long[pairs];
		for (int i = 0; i < pairs; i++) {
			if (ThreadLocalRandom.current().nextBoolean()) {
				rawTimes[i] = time(raw);
				annotatedTimes[i] = time(annotated);
			}
			else {
				annotatedTimes[i] = time(annotated);
				rawTimes[i] = time(raw);
			}
		}
		return new long[][] { rawTimes, annotatedTimes };
	}

	private static long time(MutexContender contender) throws Exception {
		long start = System.nanoTime();
		contender.cycle("paired");
		return System.nanoTime() - start;
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
