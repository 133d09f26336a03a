package io.github.distlock.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

import org.apache.curator.test.TestingServer;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import io.github.distlock.core.LockHandle;
import io.github.distlock.curator.CuratorLocks;

/**
 * Many concurrent callers (1 000 by default) locking and releasing, on one hot key and on
 * as many keys as callers: throughput and the JVM's peak live thread count. A caller of a
 * blocking contender is a thread of a pool as large as the number of callers (as a
 * servlet container would give each request one); a caller of an asynchronous contender
 * is a chain of futures that holds no thread while it waits.
 * <p>
 * Contenders: {@code raw-curator} and {@code distlock-annotation} (a synchronous
 * {@code @DistributedLock} method) on the thread pool; {@code distlock-async} (the
 * programmatic {@code acquireAsync}) and {@code distlock-mono} (a {@code Mono}-returning
 * {@code @DistributedLock} method, each caller one subscription repeated), whose
 * acquisitions complete on the engine's own completion threads.
 * <p>
 * {@code java -jar benchmarks/target/benchmarks.jar async [contender...]}; system
 * properties {@code bench.callers} (1 000), {@code bench.asyncSeconds} (10),
 * {@code bench.asyncWarmupSeconds} (3).
 */
final class AsyncCallers {

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	static final String ASYNC_API = "distlock-async";

	static final String MONO = "distlock-mono";

	private AsyncCallers() {
	}

	static void main(String[] args) throws Exception {
		int callers = Integer.getInteger("bench.callers", 1_000);
		Duration measure = Duration.ofSeconds(Integer.getInteger("bench.asyncSeconds", 10));
		Duration warmup = Duration.ofSeconds(Integer.getInteger("bench.asyncWarmupSeconds", 3));
		List<String> contenders = (args.length > 0) ? List.of(args)
				: List.of(RawCuratorContender.NAME, AnnotationContender.NAME, ASYNC_API, MONO);
		System.setProperty("zookeeper.forceSync", "no");
		System.setProperty("zookeeper.admin.enableServer", "false");
		try (TestingServer server = new TestingServer(true)) {
			System.setProperty(BenchmarkClients.CONNECT_PROPERTY, server.getConnectString());
			System.out.printf(Locale.ROOT, "%s; load average %s; %d callers, %s measured after %s of warm-up%n",
					ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), PairedOverhead.loadAverage(),
					callers, measure, warmup);
			List<String> rows = new ArrayList<>();
			for (String layout : List.of("one hot key", callers + " keys")) {
				IntFunction<String> keyOf = layout.equals("one hot key") ? (i) -> "async-hot" : (i) -> "async-" + i;
				for (String name : contenders) {
					rows.add(run(name, layout, callers, keyOf, warmup, measure));
				}
			}
			System.out.println("| keys | contender | ops/s | peak live threads (before the callers) |");
			System.out.println("|---|---|---:|---:|");
			rows.forEach(System.out::println);
			System.out.printf(Locale.ROOT, "load average at the end: %s%n", PairedOverhead.loadAverage());
		}
	}

	private static String run(String name, String layout, int callers, IntFunction<String> keyOf, Duration warmup,
			Duration measure) throws Exception {
		int before = THREADS.getThreadCount();
		try (Callers running = asyncContender(name).orElseGet(() -> blocking(name)).start(callers, keyOf)) {
			Thread.sleep(warmup.toMillis());
			running.check();
			long start = running.done.sum();
			THREADS.resetPeakThreadCount();
			long startNanos = System.nanoTime();
			Thread.sleep(measure.toMillis());
			long cycles = running.done.sum() - start;
			double seconds = (System.nanoTime() - startNanos) / 1e9;
			int peak = THREADS.getPeakThreadCount();
			running.check();
			String row = String.format(Locale.ROOT, "| %s | %s | %.0f | %d (%d) |", layout, name, cycles / seconds,
					peak, before);
			System.out.println(row);
			return row;
		}
	}

	/** The asynchronous contender of that name, if it is one. */
	static java.util.Optional<Starter> asyncContender(String name) {
		if (name.equals(ASYNC_API)) {
			return java.util.Optional.of(AsyncCallers::asyncApi);
		}
		if (name.equals(MONO)) {
			return java.util.Optional.of(AsyncCallers::mono);
		}
		return java.util.Optional.empty();
	}

	/** Callers of a blocking contender: one pool thread each, looping. */
	private static Starter blocking(String name) {
		return (callers, keyOf) -> {
			MutexContender contender = MutexContender.create(name);
			ExecutorService pool = Executors.newFixedThreadPool(callers);
			Callers running = new Callers(() -> {
				// Let the callers end their cycle (raw Curator's waiters on a hot key may
				// take longer than that: they are interrupted).
				pool.shutdown();
				if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
					pool.shutdownNow();
					pool.awaitTermination(60, TimeUnit.SECONDS);
				}
				contender.close();
			});
			for (int i = 0; i < callers; i++) {
				String key = keyOf.apply(i);
				pool.execute(() -> {
					while (!running.stop.get()) {
						try {
							contender.cycle(key);
							running.done.increment();
						}
						catch (Exception ex) {
							running.failed(ex);
						}
					}
				});
			}
			return running;
		};
	}

	/**
	 * Callers of distlock's {@code acquireAsync}: each a chain that acquires, releases
	 * and starts again, holding no thread while it waits.
	 */
	private static Callers asyncApi(int callers, IntFunction<String> keyOf) {
		CuratorLocks locks = CuratorLocks.builder(BenchmarkClients.start())
			.defaultWaitTime(MutexContender.WAIT)
			.applicationName("benchmarks")
			.build();
		Callers running = new Callers(() -> {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (locks.waitingCount() + locks.heldCount() > 0 && System.nanoTime() < deadline) {
				Thread.sleep(10);
			}
			locks.close();
			locks.client().close();
		});
		for (int i = 0; i < callers; i++) {
			loop(locks, keyOf.apply(i), running);
		}
		return running;
	}

	/**
	 * Callers of a {@code Mono}-annotated method: each a subscription that subscribes
	 * again when the method's publisher completes (and the lock is released).
	 */
	private static Callers mono(int callers, IntFunction<String> keyOf) {
		AnnotationContender contender = new AnnotationContender();
		AnnotatedLocks bean = contender.annotated();
		List<Disposable> subscriptions = new ArrayList<>(callers);
		Callers[] holder = new Callers[1];
		Callers running = new Callers(() -> {
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
			while (holder[0].active.sum() > 0 && System.nanoTime() < deadline) {
				Thread.sleep(10);
			}
			subscriptions.forEach(Disposable::dispose);
			contender.close();
		});
		holder[0] = running;
		for (int i = 0; i < callers; i++) {
			String key = keyOf.apply(i);
			subscriptions.add(Mono.defer(() -> {
				running.active.increment();
				return bean.cycleMono(key);
			}).doOnTerminate(() -> {
				running.active.decrement();
				running.done.increment();
			}).repeat(() -> !running.stop.get()).subscribe(null, running::failed));
		}
		return running;
	}

	private static void loop(CuratorLocks locks, String key, Callers running) {
		if (running.stop.get()) {
			return;
		}
		CompletableFuture<LockHandle> acquired = locks.mutex(key).acquireAsync(MutexContender.WAIT);
		acquired.whenComplete((handle, ex) -> {
			if (ex != null) {
				running.failed(ex);
				return;
			}
			handle.close();
			running.done.increment();
			loop(locks, key, running);
		});
	}

	/** Starts the callers of one contender. */
	@FunctionalInterface
	interface Starter {

		Callers start(int callers, IntFunction<String> keyOf) throws Exception;

	}

	/** Running callers: their count of cycles, their first failure, and how to stop. */
	static final class Callers implements AutoCloseable {

		final LongAdder done = new LongAdder();

		// Cycles started and not ended (the Mono callers').
		final LongAdder active = new LongAdder();

		final AtomicBoolean stop = new AtomicBoolean();

		private final AtomicReference<Throwable> failure = new AtomicReference<>();

		private final Stopper stopper;

		Callers(Stopper stopper) {
			this.stopper = stopper;
		}

		void failed(Throwable ex) {
			if (!this.stop.get()) {
				this.failure.compareAndSet(null, ex);
			}
		}

		void check() {
			Throwable ex = this.failure.get();
			if (ex != null) {
				throw new IllegalStateException("A caller failed", ex);
			}
		}

		@Override
		public void close() throws Exception {
			this.stop.set(true);
			this.stopper.stop();
		}

	}

	@FunctionalInterface
	interface Stopper {

		void stop() throws Exception;

	}

}
