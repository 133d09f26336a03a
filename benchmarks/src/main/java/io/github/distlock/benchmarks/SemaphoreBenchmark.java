package io.github.distlock.benchmarks;

import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockHandle;

/**
 * Sixteen threads of one client on a semaphore of four permits: Curator's
 * {@link InterProcessSemaphoreV2} against distlock's semaphore, programmatic and through
 * {@code @Semaphore} (which checks that every node declares the same number of permits).
 */
public class SemaphoreBenchmark {

	static final int PERMITS = 4;

	@Benchmark
	@Threads(16)
	public void semaphore4Permits16Threads(Contender state) throws Exception {
		if (state.raw != null) {
			Lease lease = state.raw.acquire(MutexContender.WAIT.toMillis(), TimeUnit.MILLISECONDS);
			if (lease == null) {
				throw MutexContender.notAcquired("semaphore");
			}
			state.raw.returnLease(lease);
		}
		else if (state.annotation != null) {
			state.annotation.annotated().permit("pool");
		}
		else {
			try (LockHandle handle = state.distlock.acquire(MutexContender.WAIT)) {
				// nothing to do under the permit
			}
		}
	}

	/** One semaphore of one contender, shared by all threads. */
	@State(Scope.Benchmark)
	public static class Contender {

		@Param({ RawCuratorContender.NAME, DistlockContender.NAME, AnnotationContender.NAME })
		public String contender = RawCuratorContender.NAME;

		CuratorFramework client;

		InterProcessSemaphoreV2 raw;

		AnnotationContender annotation;

		DistlockContender locks;

		ClusterLock distlock;

		@Setup(Level.Trial)
		public void start() {
			if (this.contender.equals(RawCuratorContender.NAME)) {
				this.client = BenchmarkClients.start();
				this.raw = new InterProcessSemaphoreV2(this.client, "/raw-semaphore/pool", PERMITS);
			}
			else if (this.contender.equals(AnnotationContender.NAME)) {
				this.annotation = new AnnotationContender();
			}
			else {
				this.locks = new DistlockContender();
				this.distlock = this.locks.locks().semaphore("pool", PERMITS);
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
