package io.github.distlock.benchmarks;

import java.util.concurrent.ThreadLocalRandom;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Four threads of one client cycling through 10 000 distinct keys, each thread through
 * its own quarter, from a random offset: per-key state (recipe instances, lock parent
 * nodes) is created and dropped all the time.
 */
public class DistinctKeysBenchmark {

	static final int KEYS = 10_000;

	private static final String[] keys = new String[KEYS];

	static {
		for (int i = 0; i < KEYS; i++) {
			keys[i] = "key" + i;
		}
	}

	@Benchmark
	@Threads(4)
	public void distinctKeys10k(Contender state, Cursor cursor) throws Exception {
		state.mutex.cycle(keys[cursor.next()]);
	}

	/** One contender on its own session, shared by all threads. */
	@State(Scope.Benchmark)
	public static class Contender {

		@Param({ RawCuratorContender.NAME, DistlockContender.NAME, AnnotationContender.NAME,
				SpringIntegrationContender.NAME, ShedLockContender.NAME })
		public String contender = RawCuratorContender.NAME;

		MutexContender mutex;

		@Setup(Level.Trial)
		public void start() throws Exception {
			this.mutex = MutexContender.create(this.contender);
			// Lock every key once first, so that no contender is measured while creating
			// the 10 000 lock parents another contender's trial may have left in place.
			for (String key : keys) {
				this.mutex.cycle(key);
			}
		}

		@TearDown(Level.Trial)
		public void stop() throws Exception {
			this.mutex.close();
		}

	}

	/**
	 * The position of one thread in its own slice of the key space: no two threads ever
	 * want the same key, so no contender waits (and ShedLock, which never waits, can take
	 * part).
	 */
	@State(Scope.Thread)
	public static class Cursor {

		private int start;

		private int size;

		private int position;

		@Setup(Level.Trial)
		public void place(ThreadParams thread) {
			this.size = KEYS / thread.getThreadCount();
			this.start = thread.getThreadIndex() * this.size;
			this.position = ThreadLocalRandom.current().nextInt(this.size);
		}

		int next() {
			this.position = (this.position + 1) % this.size;
			return this.start + this.position;
		}

	}

}
