package io.github.distlock.benchmarks;

import java.util.Arrays;
import java.util.Collection;

import org.apache.curator.test.TestingServer;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs every benchmark against one embedded ZooKeeper started here, then prints each
 * result as a ratio to raw Curator measured in the same run; or, with the argument
 * {@code soak}, runs the {@link Soak}.
 * <p>
 * With {@code paired}, runs {@link PairedOverhead}; with {@code interleaved},
 * {@link Interleaved}; with {@code async}, {@link AsyncCallers}; with {@code fenced},
 * {@link FencedTransactionOverhead}; with {@code ceiling}, {@link ServerCeiling}.
 * <p>
 * {@code java -jar benchmarks/target/benchmarks.jar [regex]} runs the benchmarks whose
 * name matches the regular expression (all by default). System properties:
 * {@code bench.warmupIterations} (2), {@code bench.warmupSeconds} (2),
 * {@code bench.iterations} (5), {@code bench.seconds} (2), {@code bench.forks} (1),
 * {@code bench.fsync} (false: the server does not fsync its transaction log).
 */
public final class BenchmarkMain {

	private BenchmarkMain() {
	}

	public static void main(String[] args) throws Exception {
		if (args.length > 0 && args[0].equals("soak")) {
			Soak.main(Arrays.copyOfRange(args, 1, args.length));
			return;
		}
		if (args.length > 0 && args[0].equals("interleaved")) {
			Interleaved.main(Arrays.copyOfRange(args, 1, args.length));
			return;
		}
		if (args.length > 0 && args[0].equals("async")) {
			AsyncCallers.main(Arrays.copyOfRange(args, 1, args.length));
			return;
		}
		if (args.length > 0 && args[0].equals("fenced")) {
			FencedTransactionOverhead.main(Arrays.copyOfRange(args, 1, args.length));
			return;
		}
		if (args.length > 0 && args[0].equals("ceiling")) {
			ServerCeiling.main(Arrays.copyOfRange(args, 1, args.length));
			return;
		}
		if (args.length > 0 && args[0].equals("paired")) {
			PairedOverhead.main(Arrays.copyOfRange(args, 1, args.length));
			return;
		}
		boolean fsync = Boolean.getBoolean("bench.fsync");
		System.setProperty("zookeeper.forceSync", fsync ? "yes" : "no");
		System.setProperty("zookeeper.admin.enableServer", "false");
		try (TestingServer server = new TestingServer(true)) {
			ChainedOptionsBuilder options = new OptionsBuilder().include((args.length > 0) ? args[0] : ".*Benchmark.*")
				.forks(Integer.getInteger("bench.forks", 1))
				.warmupIterations(Integer.getInteger("bench.warmupIterations", 2))
				.warmupTime(TimeValue.seconds(Integer.getInteger("bench.warmupSeconds", 2)))
				.measurementIterations(Integer.getInteger("bench.iterations", 5))
				.measurementTime(TimeValue.seconds(Integer.getInteger("bench.seconds", 2)))
				.jvmArgs("-Xms256m", "-Xmx512m",
						"-D" + BenchmarkClients.CONNECT_PROPERTY + "=" + server.getConnectString())
				.shouldFailOnError(false);
			Collection<RunResult> results = new Runner(options.build()).run();
			System.out.println();
			System.out.println("ZooKeeper " + org.apache.zookeeper.Version.getFullVersion() + ", embedded, loopback, "
					+ (fsync ? "fsync on" : "fsync off") + "; JVM " + System.getProperty("java.vm.version") + ", "
					+ Runtime.getRuntime().availableProcessors() + " CPUs");
			System.out.println(ResultTable.format(results));
		}
	}

}
