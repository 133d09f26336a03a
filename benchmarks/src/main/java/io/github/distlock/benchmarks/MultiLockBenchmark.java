package io.github.distlock.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMultiLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import io.github.distlock.core.MultiLockHandle;

/**
 * Three locks taken together and released, from one thread: Curator's
 * {@link InterProcessMultiLock} against distlock's {@code locks.multi(...)} and a
 * {@code @DistributedLock} whose path template gives a list (sorted order, one deadline
 * for the set).
 */
public class MultiLockBenchmark {

	static final List<String> KEYS = List.of("multi/a", "multi/b", "multi/c");

	@Benchmark
	@Threads(1)
	public void multiLock3Paths(Contender state) throws Exception {
		if (state.raw != null) {
			if (!state.raw.acquire(MutexContender.WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
				throw MutexContender.notAcquired("multi");
			}
			state.raw.release();
		}
		else if (state.annotation != null) {
			state.annotation.annotated().all(KEYS);
		}
		else {
			try (MultiLockHandle handle = state.locks.locks()
				.multi(KEYS.stream().map(state.locks.locks()::mutex).toList())
				.acquire(MutexContender.WAIT)) {
				// nothing to do under the locks
			}
		}
	}

	/** One contender on its own session. */
	@State(Scope.Benchmark)
	public static class Contender {

		@Param({ RawCuratorContender.NAME, DistlockContender.NAME, AnnotationContender.NAME })
		public String contender = RawCuratorContender.NAME;

		CuratorFramework client;

		InterProcessMultiLock raw;

		AnnotationContender annotation;

		DistlockContender locks;

		@Setup(Level.Trial)
		public void start() {
			if (this.contender.equals(RawCuratorContender.NAME)) {
				this.client = BenchmarkClients.start();
				this.raw = new InterProcessMultiLock(this.client, KEYS.stream().map((key) -> "/raw/" + key).toList());
			}
			else if (this.contender.equals(AnnotationContender.NAME)) {
				this.annotation = new AnnotationContender();
			}
			else {
				this.locks = new DistlockContender();
			}
		}

		@TearDown(Level.Trial)
		public void stop() {
			if (this.client != null) {
				this.client.close();
			}
			if (this.locks != null) {
				this.locks.close();
			}
			if (this.annotation != null) {
				this.annotation.close();
			}
		}

	}

}
