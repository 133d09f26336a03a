package io.github.distlock.benchmarks;

import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import io.github.distlock.core.ClusterLock;
import io.github.distlock.core.LockHandle;
import io.github.distlock.curator.CuratorLocks;

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
		else if (state.annotated != null) {
			state.annotated.permit("pool");
		}
		else {
			try (LockHandle handle = state.distlock.acquire(MutexContender.WAIT)) {
				// nothing to do under the permit
			}
		}
	}

	/** One semaphore of one contender, shared by all threads. */
	@State(Scope.Benchmark)
	public static class Contender extends RecipeContender {

		InterProcessSemaphoreV2 raw;

		ClusterLock distlock;

		@Override
		void startRaw(CuratorFramework client) {
			this.raw = new InterProcessSemaphoreV2(client, "/raw-semaphore/pool", PERMITS);
		}

		@Override
		void startDistlock(CuratorLocks locks) {
			this.distlock = locks.semaphore("pool", PERMITS);
		}

	}

}
