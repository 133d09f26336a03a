package io.github.distlock.benchmarks;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

import io.github.distlock.core.ClusterReadWriteLock;
import io.github.distlock.core.LockHandle;

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
		else if (state.annotation != null) {
			if (write) {
				state.annotation.annotated().write("mix");
			}
			else {
				state.annotation.annotated().read("mix");
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
	public static class Contender {

		@Param({ RawCuratorContender.NAME, DistlockContender.NAME, AnnotationContender.NAME })
		public String contender = RawCuratorContender.NAME;

		CuratorFramework client;

		InterProcessReadWriteLock raw;

		AnnotationContender annotation;

		DistlockContender locks;

		ClusterReadWriteLock distlock;

		@Setup(Level.Trial)
		public void start() {
			if (this.contender.equals(RawCuratorContender.NAME)) {
				this.client = BenchmarkClients.start();
				this.raw = new InterProcessReadWriteLock(this.client, "/raw-rw/mix");
			}
			else if (this.contender.equals(AnnotationContender.NAME)) {
				this.annotation = new AnnotationContender();
			}
			else {
				this.locks = new DistlockContender();
				this.distlock = this.locks.locks().readWrite("mix");
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
