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
 * Try, without waiting, a lock that another client (another session) holds for the whole
 * run: the cost of learning "no". Spring Integration's registry has no try-once (see
 * {@link SpringIntegrationContender#tryOnce(String)}).
 */
@Threads(1)
public class TryLockMissBenchmark {

	static final String KEY = "held";

	@Benchmark
	public boolean tryLockMiss(Contender state) throws Exception {
		return state.mutex.tryOnce(KEY);
	}

	/** One contender trying, and another instance of it, on another session, holding. */
	@State(Scope.Benchmark)
	public static class Contender {

		@Param({ RawCuratorContender.NAME, DistlockContender.NAME, AnnotationContender.NAME, ShedLockContender.NAME })
		public String contender = RawCuratorContender.NAME;

		MutexContender holder;

		MutexContender mutex;

		@Setup(Level.Trial)
		public void start() throws Exception {
			this.holder = MutexContender.create(this.contender);
			this.holder.hold(KEY);
			this.mutex = MutexContender.create(this.contender);
			if (this.mutex.tryOnce(KEY)) {
				throw new IllegalStateException(this.contender + " acquired a lock held by another client");
			}
		}

		@TearDown(Level.Trial)
		public void stop() throws Exception {
			this.mutex.close();
			this.holder.close();
		}

	}

}
