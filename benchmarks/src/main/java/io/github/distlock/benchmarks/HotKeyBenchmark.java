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
 * Many threads of one client (one JVM, one session) taking turns on one lock. With
 * Curator alone every release wakes every waiting thread of the client. ShedLock does not
 * wait for a lock, so it is not a contender here.
 */
public class HotKeyBenchmark {

	static final String KEY = "hot";

	@Benchmark
	@Threads(8)
	public void hotKey8Threads(Contender state) throws Exception {
		state.mutex.cycle(KEY);
	}

	@Benchmark
	@Threads(32)
	public void hotKey32Threads(Contender state) throws Exception {
		state.mutex.cycle(KEY);
	}

	/** One contender on its own session, shared by all threads. */
	@State(Scope.Benchmark)
	public static class Contender {

		@Param({ RawCuratorContender.NAME, DistlockContender.NAME, AnnotationContender.NAME,
				SpringIntegrationContender.NAME })
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
