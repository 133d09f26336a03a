package io.github.distlock.curator;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockUpgradeException;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ReadWriteLockTests {

	/**
	 * A thread per task: tasks that block must run at the same time, and from JDK 25 on
	 * CompletableFuture's default executor is the common pool even when its parallelism
	 * is 1 (two cores), which runs them one after the other.
	 */
	private static final Executor OWN_THREADS = (task) -> new Thread(task).start();

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private CuratorLocks node1;

	private CuratorLocks node2;

	@BeforeEach
	void startNodes() {
		this.node1 = zookeeper.newNode();
		this.node2 = zookeeper.newNode();
	}

	@Test
	void readersOnTwoNodesAreInsideAtTheSameMoment() throws Exception {
		CyclicBarrier bothInside = new CyclicBarrier(2);
		CompletableFuture<Void> first = CompletableFuture.runAsync(() -> readAndMeet(this.node1, bothInside),
				OWN_THREADS);
		CompletableFuture<Void> second = CompletableFuture.runAsync(() -> readAndMeet(this.node2, bothInside),
				OWN_THREADS);
		// Each reader waits inside its lock for the other: this only completes if both
		// are in.
		CompletableFuture.allOf(first, second).get(20, TimeUnit.SECONDS);
	}

	private static void readAndMeet(CuratorLocks node, CyclicBarrier barrier) {
		try (LockHandle read = node.readWrite("catalog").readLock().acquire(Duration.ofSeconds(5))) {
			barrier.await(10, TimeUnit.SECONDS);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Test
	void writerWaitsUntilTheReaderLeaves() throws Exception {
		LockHandle read = this.node1.readWrite("catalog").readLock().acquire(Duration.ofSeconds(5));
		assertThat(this.node2.readWrite("catalog").writeLock().tryAcquire(Duration.ofMillis(300))).isEmpty();
		CompletableFuture<Long> writer = CompletableFuture.supplyAsync(() -> {
			try (LockHandle write = this.node2.readWrite("catalog").writeLock().acquire(Duration.ofSeconds(20))) {
				return write.fencingToken();
			}
		});
		assertThat(writer).isNotDone();
		long readerToken = read.fencingToken();
		read.close();
		assertThat(writer.get(20, TimeUnit.SECONDS)).isGreaterThan(readerToken);
	}

	@Test
	void readerWaitsWhileAWriterHoldsTheLock() throws Exception {
		try (LockHandle write = this.node1.readWrite("catalog").writeLock().acquire(Duration.ofSeconds(5))) {
			assertThat(this.node2.readWrite("catalog").readLock().tryAcquire(Duration.ofMillis(300))).isEmpty();
		}
		try (LockHandle read = this.node2.readWrite("catalog").readLock().acquire(Duration.ofSeconds(5))) {
			assertThat(read.fencingToken()).isPositive();
		}
	}

	@Test
	void writersAreExclusive() {
		try (LockHandle write = this.node1.readWrite("catalog").writeLock().acquire(Duration.ofSeconds(5))) {
			assertThat(this.node2.readWrite("catalog").writeLock().tryAcquire(Duration.ofMillis(300))).isEmpty();
		}
		assertThat(this.node2.readWrite("catalog").writeLock().tryAcquire(Duration.ofSeconds(5))).isPresent()
			.get()
			.satisfies(LockHandle::close);
	}

	@Test
	void writerMayTakeTheReadSideAndKeepsItAfterReleasingTheWriteSide() {
		LockHandle write = this.node1.readWrite("catalog").writeLock().acquire(Duration.ofSeconds(5));
		LockHandle read = this.node1.readWrite("catalog").readLock().acquire(Duration.ZERO);
		write.close();
		// Still a reader: other readers come in, writers stay out.
		assertThat(this.node2.readWrite("catalog").readLock().tryAcquire(Duration.ofSeconds(5))).isPresent()
			.get()
			.satisfies(LockHandle::close);
		assertThat(this.node2.readWrite("catalog").writeLock().tryAcquire(Duration.ofMillis(300))).isEmpty();
		read.close();
	}

	@Test
	void readerAskingForTheWriteLockFailsFast() {
		try (LockHandle read = this.node1.readWrite("catalog").readLock().acquire(Duration.ofSeconds(5))) {
			long start = System.nanoTime();
			assertThatExceptionOfType(LockUpgradeException.class)
				.isThrownBy(() -> this.node1.readWrite("catalog").writeLock().acquire(Duration.ofSeconds(30)))
				.withMessageContaining("holds the read lock 'catalog'")
				.withMessageContaining("Release the read lock first");
			// Refused, not waited out.
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
		}
		assertThat(this.node1.leftovers()).isZero();
	}

	@Test
	void bothSidesAreReentrant() {
		try (LockHandle write = this.node1.readWrite("catalog").writeLock().acquire(Duration.ofSeconds(5));
				LockHandle again = this.node1.readWrite("catalog").writeLock().acquire(Duration.ZERO)) {
			assertThat(again.fencingToken()).isEqualTo(write.fencingToken());
		}
		try (LockHandle read = this.node1.readWrite("catalog").readLock().acquire(Duration.ofSeconds(5));
				LockHandle again = this.node1.readWrite("catalog").readLock().acquire(Duration.ZERO)) {
			assertThat(again.fencingToken()).isEqualTo(read.fencingToken());
		}
		assertThat(this.node2.readWrite("catalog").writeLock().tryAcquire(Duration.ofSeconds(5))).isPresent()
			.get()
			.satisfies(LockHandle::close);
	}

	@Test
	void readWriteLocksLiveInTheirOwnSubtree() throws Exception {
		try (LockHandle mutex = this.node1.mutex("catalog").acquire(Duration.ofSeconds(5));
				LockHandle write = this.node2.readWrite("catalog").writeLock().acquire(Duration.ofSeconds(5))) {
			assertThat(this.node1.client().getChildren().forPath("/rw/catalog")).hasSize(1);
			assertThat(this.node1.client().getChildren().forPath("/mutex/catalog")).hasSize(1);
		}
	}

}
