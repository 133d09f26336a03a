package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.annotation.OnTimeout;
import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.WriteLock;
import io.github.distlock.core.LockUpgradeException;
import io.github.distlock.testsupport.LockTestContexts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code @ReadLock} and {@code @WriteLock} across two nodes (two application contexts,
 * two ZooKeeper sessions) and on one thread.
 */
class ReadWriteLockAnnotationTests {

	private static final Duration LONG = Duration.ofSeconds(20);

	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts();

	private ExecutorService pool;

	private AnnotationConfigApplicationContext context1;

	private DocumentService node1;

	private DocumentService node2;

	@BeforeEach
	void startNodes() throws InterruptedException {
		this.pool = Executors.newCachedThreadPool();
		this.context1 = contexts.start(DocumentConfiguration.class);
		this.node1 = this.context1.getBean(DocumentService.class);
		AnnotationConfigApplicationContext context2 = contexts.start(DocumentConfiguration.class);
		this.node2 = context2.getBean(DocumentService.class);
		for (AnnotationConfigApplicationContext context : List.of(this.context1, context2)) {
			assertThat(context.getBean(CuratorFramework.class).blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	@AfterEach
	void stopPool() {
		this.pool.shutdownNow();
	}

	@Test
	void readersOnTwoNodesAreInsideAtTheSameMoment() throws Exception {
		CyclicBarrier bothInside = new CyclicBarrier(2);
		Future<String> first = this.pool.submit(() -> this.node1.readAtBarrier("shared", bothInside));
		Future<String> second = this.pool.submit(() -> this.node2.readAtBarrier("shared", bothInside));
		// Each reader leaves only once the other one is inside too.
		assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("read shared");
		assertThat(second.get(30, TimeUnit.SECONDS)).isEqualTo("read shared");
	}

	@Test
	void writerWaitsUntilTheReaderLeaves() throws Exception {
		Gate reader = new Gate();
		Future<?> reading = this.pool.submit(() -> this.node1.readHolding("order-rw", reader));
		reader.awaitEntered();
		AtomicBoolean readerLeft = new AtomicBoolean();
		AtomicBoolean writerSawReaderGone = new AtomicBoolean();
		AtomicBoolean writerInside = new AtomicBoolean();
		Future<?> writing = this.pool.submit(() -> this.node2.write("order-rw", () -> {
			writerSawReaderGone.set(readerLeft.get());
			writerInside.set(true);
		}));
		await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(5)).until(() -> !writerInside.get());
		readerLeft.set(true);
		reader.release();
		reading.get(30, TimeUnit.SECONDS);
		writing.get(30, TimeUnit.SECONDS);
		assertThat(writerInside).isTrue();
		assertThat(writerSawReaderGone).isTrue();
	}

	@Test
	void readerWaitsUntilTheWriterLeaves() throws Exception {
		Gate writer = new Gate();
		Future<?> writing = this.pool.submit(() -> this.node1.writeHolding("order-wr", writer));
		writer.awaitEntered();
		AtomicBoolean writerLeft = new AtomicBoolean();
		AtomicBoolean readerSawWriterGone = new AtomicBoolean();
		AtomicBoolean readerInside = new AtomicBoolean();
		Future<?> reading = this.pool.submit(() -> this.node2.read("order-wr", () -> {
			readerSawWriterGone.set(writerLeft.get());
			readerInside.set(true);
		}));
		await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(5)).until(() -> !readerInside.get());
		writerLeft.set(true);
		writer.release();
		writing.get(30, TimeUnit.SECONDS);
		reading.get(30, TimeUnit.SECONDS);
		assertThat(readerInside).isTrue();
		assertThat(readerSawWriterGone).isTrue();
	}

	@Test
	void writersOnTwoNodesAndFourThreadsExcludeEachOther() throws Exception {
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger maxInside = new AtomicInteger();
		AtomicInteger entries = new AtomicInteger();
		Runnable body = () -> {
			maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
			entries.incrementAndGet();
			Thread.yield();
			inside.decrementAndGet();
		};
		List<Future<?>> futures = new ArrayList<>();
		for (DocumentService node : List.of(this.node1, this.node2, this.node1, this.node2)) {
			futures.add(this.pool.submit(() -> {
				for (int i = 0; i < 10; i++) {
					node.write("exclusive", body);
				}
			}));
		}
		for (Future<?> future : futures) {
			future.get(60, TimeUnit.SECONDS);
		}
		assertThat(entries).hasValue(40);
		assertThat(maxInside).hasValue(1);
	}

	@Test
	void writerHoldingOnOneNodeKeepsTheOtherNodesWriterOut() throws Exception {
		Gate writer = new Gate();
		Future<?> writing = this.pool.submit(() -> this.node1.writeHolding("single-writer", writer));
		writer.awaitEntered();
		assertThat(this.node2.tryWrite("single-writer")).isFalse();
		writer.release();
		writing.get(30, TimeUnit.SECONDS);
		assertThat(this.node2.tryWrite("single-writer")).isTrue();
	}

	@Test
	void writerMayTakeTheReadLockOnTheSameThread() {
		assertThat(this.node1.writeThenRead("downgrade")).isEqualTo("write(read downgrade)");
		// Both sides were released: another node can write at once.
		assertThat(this.node2.tryWrite("downgrade")).isTrue();
	}

	@Test
	void readerAskingForTheWriteLockFailsFastNamingMethodAndPath() {
		long started = System.nanoTime();
		assertThatExceptionOfType(LockUpgradeException.class).isThrownBy(() -> this.node1.readThenWrite("upgrade"))
			.withMessageStartingWith("@WriteLock(\"docs/#{#name}\") on ")
			.withMessageContaining("DocumentService.writeWaitingLong(String)")
			.withMessageContaining("holds the read lock 'docs/upgrade' and asked for its write lock");
		// The inner write waits 30 s if the upgrade is not detected.
		assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
		assertThat(this.node1.writeLongRuns()).isZero();
		// The outer read lock was released despite the failure.
		assertThat(this.node2.tryWrite("upgrade")).isTrue();
	}

	@Test
	void readLockReentersWhileAWriterOfAnotherNodeIsQueued() throws Exception {
		CuratorFramework client = this.context1.getBean(CuratorFramework.class);
		Gate outer = new Gate();
		CountDownLatch innerDone = new CountDownLatch(1);
		AtomicBoolean innerRan = new AtomicBoolean();
		Future<?> reading = this.pool.submit(() -> this.node1.readHolding("reentrant-read", outer, () -> {
			// A fresh reader would queue behind the waiting writer; a reentrant one
			// does not.
			innerRan.set(this.node1.tryRead("reentrant-read"));
			innerDone.countDown();
		}));
		outer.awaitEntered();
		AtomicBoolean writerInside = new AtomicBoolean();
		Future<?> writing = this.pool.submit(() -> this.node2.write("reentrant-read", () -> writerInside.set(true)));
		// The writer is queued in ZooKeeper behind the reader.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> client.getChildren().forPath("/rw/docs/reentrant-read").size() >= 2);
		assertThat(this.node1.tryRead("reentrant-read")).as("fresh reader behind a queued writer").isFalse();
		outer.release();
		assertThat(innerDone.await(30, TimeUnit.SECONDS)).isTrue();
		reading.get(30, TimeUnit.SECONDS);
		writing.get(30, TimeUnit.SECONDS);
		assertThat(innerRan).isTrue();
		assertThat(writerInside).isTrue();
	}

	@Test
	void writeLockReentersOnTheSameThread() {
		assertThat(this.node1.writeThenWrite("reentrant-write")).isEqualTo("write(write reentrant-write)");
		assertThat(this.node2.tryWrite("reentrant-write")).isTrue();
	}

	@Test
	void mutexAndWriteLockOfOneNameLiveInSeparateSubtrees() throws Exception {
		AnnotationConfigApplicationContext context = contexts.start(SubtreeConfiguration.class);
		SubtreeService service = context.getBean(SubtreeService.class);
		assertThat(context.getBean(CuratorFramework.class).blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		CuratorFramework root = context.getBean(CuratorFramework.class).usingNamespace(null);
		String ns = "/" + LockTestContexts.NAMESPACE;
		List<String> seen = service.mutexThenWrite(
				() -> List.of("mutex:" + root.getChildren().forPath(ns + "/mutex/x").size(),
						"rw:" + ((root.checkExists().forPath(ns + "/rw/x") != null)
								? root.getChildren().forPath(ns + "/rw/x").size() : 0)),
				() -> List.of("mutex:" + root.getChildren().forPath(ns + "/mutex/x").size(),
						"rw:" + root.getChildren().forPath(ns + "/rw/x").size()));
		// Inside the mutex: one node under mutex/x, none under rw/x; inside both: one
		// each, and the write lock was granted while the mutex of the same name was held.
		assertThat(seen).containsExactly("mutex:1", "rw:0", "mutex:1", "rw:1");
		assertThat(root.getChildren().forPath(ns + "/rw/x")).allMatch((child) -> child.contains("__WRIT__"));
	}

	/** Lets a test hold a locked method open until it says so. */
	static final class Gate {

		private final CountDownLatch entered = new CountDownLatch(1);

		private final CountDownLatch released = new CountDownLatch(1);

		void enter() {
			this.entered.countDown();
			try {
				assertThat(this.released.await(60, TimeUnit.SECONDS)).as("released").isTrue();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}

		void awaitEntered() throws InterruptedException {
			assertThat(this.entered.await(30, TimeUnit.SECONDS)).as("entered").isTrue();
		}

		void release() {
			this.released.countDown();
		}

	}

	@FunctionalInterface
	interface Probe {

		List<String> look() throws Exception;

	}

	public static class DocumentService {

		final AtomicInteger writeLongRuns = new AtomicInteger();

		private final ObjectProvider<DocumentService> self;

		DocumentService(ObjectProvider<DocumentService> self) {
			this.self = self;
		}

		public int writeLongRuns() {
			return this.writeLongRuns.get();
		}

		@ReadLock(value = "docs/#{#name}", waitTime = "20s")
		public String readAtBarrier(String name, CyclicBarrier barrier) throws Exception {
			barrier.await(20, TimeUnit.SECONDS);
			return "read " + name;
		}

		@ReadLock(value = "docs/#{#name}", waitTime = "20s")
		public void readHolding(String name, Gate gate) {
			gate.enter();
		}

		@ReadLock(value = "docs/#{#name}", waitTime = "20s")
		public void readHolding(String name, Gate gate, Runnable then) {
			gate.enter();
			then.run();
		}

		@ReadLock(value = "docs/#{#name}", waitTime = "20s")
		public void read(String name, Runnable body) {
			body.run();
		}

		@ReadLock(value = "docs/#{#name}", waitTime = "1s", onTimeout = OnTimeout.SKIP)
		public boolean tryRead(String name) {
			return true;
		}

		@WriteLock(value = "docs/#{#name}", waitTime = "20s")
		public void writeHolding(String name, Gate gate) {
			gate.enter();
		}

		@WriteLock(value = "docs/#{#name}", waitTime = "20s")
		public void write(String name, Runnable body) {
			body.run();
		}

		@WriteLock(value = "docs/#{#name}", waitTime = "1s", onTimeout = OnTimeout.SKIP)
		public boolean tryWrite(String name) {
			return true;
		}

		@WriteLock(value = "docs/#{#name}", waitTime = "30s")
		public String writeWaitingLong(String name) {
			this.writeLongRuns.incrementAndGet();
			return "write " + name;
		}

		@WriteLock("docs/#{#name}")
		public String writeThenRead(String name) {
			return "write(" + this.self.getObject().readNow(name) + ")";
		}

		@WriteLock("docs/#{#name}")
		public String writeThenWrite(String name) {
			return "write(" + this.self.getObject().writeNow(name) + ")";
		}

		@ReadLock(value = "docs/#{#name}", waitTime = "2s")
		public String readNow(String name) {
			return "read " + name;
		}

		@WriteLock(value = "docs/#{#name}", waitTime = "2s")
		public String writeNow(String name) {
			return "write " + name;
		}

		@ReadLock("docs/#{#name}")
		public String readThenWrite(String name) {
			return this.self.getObject().writeWaitingLong(name);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class DocumentConfiguration {

		@Bean
		DocumentService documentService(ObjectProvider<DocumentService> self) {
			return new DocumentService(self);
		}

	}

	public static class SubtreeService {

		private final ObjectProvider<SubtreeService> self;

		SubtreeService(ObjectProvider<SubtreeService> self) {
			this.self = self;
		}

		@DistributedLock(value = "x", waitTime = "5s")
		public List<String> mutexThenWrite(Probe insideMutex, Probe insideBoth) throws Exception {
			List<String> seen = new ArrayList<>(insideMutex.look());
			seen.addAll(this.self.getObject().write(insideBoth));
			return seen;
		}

		@WriteLock(value = "x", waitTime = "5s")
		public List<String> write(Probe insideBoth) throws Exception {
			return insideBoth.look();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SubtreeConfiguration {

		@Bean
		SubtreeService subtreeService(ObjectProvider<SubtreeService> self) {
			return new SubtreeService(self);
		}

	}

}
