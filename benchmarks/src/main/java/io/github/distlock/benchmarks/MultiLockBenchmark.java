package io.github.distlock.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMultiLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import io.github.distlock.core.MultiLockHandle;
import io.github.distlock.curator.CuratorLocks;

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
		else if (state.annotated != null) {
			state.annotated.all(KEYS);
		}
		else {
			try (MultiLockHandle handle = state.locks.multi(KEYS.stream().map(state.locks::mutex).toList())
				.acquire(MutexContender.WAIT)) {
				// nothing to do under the locks
			}
		}
	}

	/** One contender on its own session. */
	@State(Scope.Benchmark)
	public static class Contender extends RecipeContender {

		InterProcessMultiLock raw;

		CuratorLocks locks;

		@Override
		void startRaw(CuratorFramework client) {
			this.raw = new InterProcessMultiLock(client, KEYS.stream().map((key) -> "/raw/" + key).toList());
		}

		@Override
		void startDistlock(CuratorLocks locks) {
			this.locks = locks;
		}

	}

}
