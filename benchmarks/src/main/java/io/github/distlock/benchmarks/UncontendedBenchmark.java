package io.github.distlock.benchmarks;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Acquire and release one lock that nobody else wants, from one thread: the cost of a
 * lock cycle itself (ZooKeeper round trips plus the library's own work).
 */
@Threads(1)
public class UncontendedBenchmark {

	@Benchmark
	public void uncontended(Contender state) throws Exception {
		state.mutex.cycle("uncontended");
	}

	/** One contender on its own session. */
	@State(Scope.Benchmark)
	public static class Contender {

		@Param({ RawCuratorContender.NAME, DistlockContender.NAME, AnnotationContender.NAME,
				SpringIntegrationContender.NAME, ShedLockContender.NAME })
		public String contender = RawCuratorContender.NAME;

		MutexContender mutex;

		@Setup(Level.Trial)
		public void start() {
			this.mutex = MutexContender.create(this.contender);
		}

		@TearDown(Level.Trial)
		public void stop() throws Exception {
			this.mutex.close();
		}

	}

}
