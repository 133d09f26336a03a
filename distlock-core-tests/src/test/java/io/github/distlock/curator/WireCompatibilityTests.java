package io.github.distlock.curator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * distlock speaks the protocols of Curator's recipes node for node: raw Curator
 * {@code InterProcessMutex}, {@code InterProcessReadWriteLock} and
 * {@code InterProcessSemaphoreV2} in one client and distlock's lock of the same kind in
 * another, on the same ZooKeeper path, exclude each other in both directions. Each pair
 * runs for 20 seconds (at once, on separate paths) with three threads on each side, and
 * the sections they enter are counted as they run.
 */
class WireCompatibilityTests {

	private static final Duration RUN_TIME = Duration.ofSeconds(20);

	private static final int PERMITS = 2;

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void rawCuratorRecipesAndDistlockExcludeEachOtherOnTheSamePaths() throws Exception {
		CuratorFramework raw = this.zookeeper.newClient();
		CuratorLocks distlock = this.zookeeper.newNode();
		Occupancy mutex = new Occupancy();
		Occupancy readWrite = new Occupancy();
		Occupancy semaphore = new Occupancy();
		InterProcessMutex rawMutex = new InterProcessMutex(raw, "/mutex/wire/mutex");
		InterProcessReadWriteLock rawReadWrite = new InterProcessReadWriteLock(raw, "/rw/wire/rw");
		InterProcessSemaphoreV2 rawSemaphore = new InterProcessSemaphoreV2(raw, "/semaphore/wire/semaphore", PERMITS);
		long end = System.nanoTime() + RUN_TIME.toNanos();
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < 3; t++) {
			boolean reentrantSide = t % 2 == 0;
			threads.add(loop("raw-mutex-" + t, end, () -> {
				if (rawMutex.acquire(2, TimeUnit.SECONDS)) {
					try {
						mutex.exclusive(true);
					}
					finally {
						rawMutex.release();
					}
				}
			}));
			threads.add(loop("distlock-mutex-" + t, end, () -> {
				try (LockHandle handle = (reentrantSide ? distlock.mutex("wire/mutex")
						: distlock.nonReentrantMutex("wire/mutex"))
					.acquire(Duration.ofSeconds(2))) {
					mutex.exclusive(false);
				}
			}));
			boolean writer = t == 0;
			threads.add(loop("raw-rw-" + t, end, () -> {
				InterProcessMutex side = writer ? rawReadWrite.writeLock() : rawReadWrite.readLock();
				if (side.acquire(2, TimeUnit.SECONDS)) {
					try {
						readWrite.readOrWrite(writer, true);
					}
					finally {
						side.release();
					}
				}
			}));
			threads.add(loop("distlock-rw-" + t, end, () -> {
				try (LockHandle handle = (writer ? distlock.readWrite("wire/rw").writeLock()
						: distlock.readWrite("wire/rw").readLock())
					.acquire(Duration.ofSeconds(2))) {
					readWrite.readOrWrite(writer, false);
				}
			}));
			threads.add(loop("raw-semaphore-" + t, end, () -> {
				Lease lease = rawSemaphore.acquire(2, TimeUnit.SECONDS);
				if (lease != null) {
					try {
						semaphore.permit(true);
					}
					finally {
						rawSemaphore.returnLease(lease);
					}
				}
			}));
			threads.add(loop("distlock-semaphore-" + t, end, () -> {
				try (LockHandle handle = distlock.semaphore("wire/semaphore", PERMITS).acquire(Duration.ofSeconds(2))) {
					semaphore.permit(false);
				}
			}));
		}
		for (Thread thread : threads) {
			thread.join(60_000);
			assertThat(thread.isAlive()).as("%s finished", thread.getName()).isFalse();
		}
		System.out.println("[measure] wire compatibility over " + RUN_TIME.toSeconds() + " s: mutex " + mutex
				+ ", read/write " + readWrite + ", semaphore(" + PERMITS + ") " + semaphore);
		assertThat(mutex.violations).hasValue(0);
		assertThat(readWrite.violations).hasValue(0);
		assertThat(semaphore.violations).hasValue(0);
		assertThat(semaphore.mostInside).hasValue(PERMITS);
		assertThat(readWrite.mostReaders.get()).isGreaterThan(1);
		for (Occupancy occupancy : List.of(mutex, readWrite, semaphore)) {
			assertThat(occupancy.rawSections.get()).isGreaterThan(20);
			assertThat(occupancy.distlockSections.get()).isGreaterThan(20);
		}
		assertThat(distlock.heldCount()).isZero();
	}

	private static Thread loop(String name, long end, Section section) {
		Thread thread = new Thread(() -> {
			while (System.nanoTime() < end) {
				try {
					section.run();
				}
				catch (LockTimeoutException ex) {
					// Busy for two seconds: try again.
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			}
		}, name);
		thread.start();
		return thread;
	}

	private interface Section {

		void run() throws Exception;

	}

	/** Who is inside one lock's sections now, and what was ever seen there. */
	private static final class Occupancy {

		private final AtomicInteger inside = new AtomicInteger();

		private final AtomicInteger readers = new AtomicInteger();

		private final AtomicInteger writers = new AtomicInteger();

		private final AtomicInteger mostInside = new AtomicInteger();

		private final AtomicInteger mostReaders = new AtomicInteger();

		private final AtomicInteger violations = new AtomicInteger();

		private final AtomicLong rawSections = new AtomicLong();

		private final AtomicLong distlockSections = new AtomicLong();

		void exclusive(boolean raw) {
			permits(1, raw);
		}

		void permit(boolean raw) {
			permits(PERMITS, raw);
		}

		private void permits(int permits, boolean raw) {
			int now = this.inside.incrementAndGet();
			this.mostInside.accumulateAndGet(now, Math::max);
			if (now > permits) {
				this.violations.incrementAndGet();
			}
			work();
			this.inside.decrementAndGet();
			(raw ? this.rawSections : this.distlockSections).incrementAndGet();
		}

		void readOrWrite(boolean write, boolean raw) {
			if (write) {
				int writers = this.writers.incrementAndGet();
				if (writers > 1 || this.readers.get() > 0) {
					this.violations.incrementAndGet();
				}
				work();
				this.writers.decrementAndGet();
			}
			else {
				int readers = this.readers.incrementAndGet();
				this.mostReaders.accumulateAndGet(readers, Math::max);
				if (this.writers.get() > 0) {
					this.violations.incrementAndGet();
				}
				work();
				this.readers.decrementAndGet();
			}
			(raw ? this.rawSections : this.distlockSections).incrementAndGet();
		}

		// A section's work: 1 to 5 ms.
		private static void work() {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ThreadLocalRandom.current().nextInt(1, 6)));
		}

		@Override
		public String toString() {
			return this.rawSections + " raw + " + this.distlockSections + " distlock sections, at most "
					+ this.mostInside + " inside (" + this.mostReaders + " readers), " + this.violations
					+ " violations";
		}

	}

}
