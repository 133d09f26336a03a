package io.github.distlock.benchmarks;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import io.github.distlock.core.ClusterReadWriteLock;
import io.github.distlock.core.LockHandle;
import io.github.distlock.curator.CuratorLocks;

/**
 * Eight threads of one client on one read/write lock, 90% reads and 10% writes. Only
 * Curator's {@link InterProcessReadWriteLock} and distlock's read/write lock,
 * programmatic and through {@code @ReadLock}/{@code @WriteLock}, take part (the peers
 * have none).
 */
public class ReadWriteMixBenchmark {

	@Benchmark
	@Threads(8)
	public void readWrite90to10(Contender state) throws Exception {
		boolean write = ThreadLocalRandom.current().nextInt(10) == 0;
		if (state.raw != null) {
			InterProcessMutex mutex = write ? state.raw.writeLock() : state.raw.readLock();
			if (!mutex.acquire(MutexContender.WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
				throw MutexContender.notAcquired("rw");
			}
			mutex.release();
		}
		else if (state.annotated != null) {
			if (write) {
				state.annotated.write("mix");
			}
			else {
				state.annotated.read("mix");
			}
		}
		else {
			try (LockHandle handle = (write ? state.distlock.writeLock() : state.distlock.readLock())
				.acquire(MutexContender.WAIT)) {
				// nothing to do under the lock
			}
		}
	}

	/** One read/write lock of one contender, shared by all threads. */
	@State(Scope.Benchmark)
	public static class Contender extends RecipeContender {

		InterProcessReadWriteLock raw;

		ClusterReadWriteLock distlock;

		@Override
		void startRaw(CuratorFramework client) {
			this.raw = new InterProcessReadWriteLock(client, "/raw-rw/mix");
		}

		@Override
		void startDistlock(CuratorLocks locks) {
			this.distlock = locks.readWrite("mix");
		}

	}

}
