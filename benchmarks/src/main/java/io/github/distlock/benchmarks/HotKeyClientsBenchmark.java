package io.github.distlock.benchmarks;

import java.util.concurrent.atomic.AtomicInteger;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * One lock wanted by three clients (three sessions, standing for three nodes of a
 * cluster) of eight threads each. The clients share this JVM; only their sessions are
 * separate.
 */
public class HotKeyClientsBenchmark {

	static final int CLIENTS = 3;

	@Benchmark
	@Threads(24)
	public void hotKey3Clients8Threads(Worker worker) throws Exception {
		worker.mutex.cycle(HotKeyBenchmark.KEY);
	}

	/** Three instances of one contender, each on its own session. */
	@State(Scope.Benchmark)
	public static class Contenders {

		@Param({ RawCuratorContender.NAME, DistlockContender.NAME, AnnotationContender.NAME,
				SpringIntegrationContender.NAME })
		public String contender = RawCuratorContender.NAME;

		final MutexContender[] clients = new MutexContender[CLIENTS];

		final AtomicInteger nextWorker = new AtomicInteger();

		@Setup(Level.Trial)
		public void start() {
			for (int i = 0; i < CLIENTS; i++) {
				this.clients[i] = MutexContender.create(this.contender);
			}
		}

		@TearDown(Level.Trial)
		public void stop() throws Exception {
			for (MutexContender client : this.clients) {
				client.close();
			}
		}

	}

	/** A benchmark thread, bound to one of the clients (eight threads per client). */
	@State(Scope.Thread)
	public static class Worker {

		MutexContender mutex;

		@Setup(Level.Trial)
		public void bind(Contenders contenders) {
			this.mutex = contenders.clients[contenders.nextWorker.getAndIncrement() % CLIENTS];
		}

	}

}
