package io.github.distlock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockLostException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.FencedStore;
import io.github.distlock.testsupport.LockShape;
import io.github.distlock.testsupport.SectionProbe;
import io.github.distlock.testsupport.ServerWatches;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The mutual-exclusion checker, against every kind of lock at once: three nodes run
 * sections for 30 seconds on a mutex (taken reentrantly and not, alternately: one lock),
 * a read/write lock (a writer and readers) and a semaphore of {@value LockShape#PERMITS}
 * permits, while sessions expire at random (one every 1 to 3 seconds), and now and then a
 * holder "pauses" past its session's expiry before writing. Exclusive holders (the mutex,
 * the writer) increment a counter in a fencing-checked store.
 * <p>
 * Afterwards: ZooKeeper never granted a lock beyond its limit (see {@link SectionProbe});
 * the accepted writes of each exclusive lock form one unbroken sequence, every accepted
 * write comes from a section that checked its lock just before writing, and every
 * completed section's write is there; once every section ended, no lock node and no watch
 * is left in ZooKeeper.
 */
class MutualExclusionCheckerTests {

	private static final Duration RUN_TIME = Duration.ofSeconds(30);

	/** How long the run may go on, past RUN_TIME, until it has seen enough. */
	private static final Duration MOST_RUN_TIME = Duration.ofMinutes(4);

	/** Sections of each shape a run goes through at least. */
	private static final int FEWEST_SECTIONS = 50;

	/** Session expirations a run injects at least. */
	private static final int FEWEST_EXPIRATIONS = 8;

	private static final List<LockShape> SHAPES = List.of(LockShape.MUTEX, LockShape.READ_WRITE, LockShape.SEMAPHORE);

	static {
		ServerWatches.enable();
	}

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	@Test
	void noLockGrantedBeyondItsLimitNoStaleWriteAcceptedNothingLostUnderRandomSessionExpiry() throws Exception {
		List<CuratorLocks> nodes = List.of(this.zookeeper.newNode(), this.zookeeper.newNode(),
				this.zookeeper.newNode());
		FencedStore<String, Counted> store = new FencedStore<>();
		Map<LockShape, SectionProbe> probes = new EnumMap<>(LockShape.class);
		for (LockShape shape : SHAPES) {
			probes.put(shape,
					new SectionProbe(this.zookeeper.newClient(), shape.holdersNode(path(shape)), LockShape.PERMITS));
		}
		Set<Long> completed = ConcurrentHashMap.newKeySet();
		AtomicLong sections = new AtomicLong();
		Map<LockShape, AtomicLong> sectionsByShape = new EnumMap<>(LockShape.class);
		SHAPES.forEach((shape) -> sectionsByShape.put(shape, new AtomicLong()));
		AtomicInteger lostBeforeWrite = new AtomicInteger();
		AtomicInteger acquireFailures = new AtomicInteger();
		AtomicInteger pausedHolders = new AtomicInteger();
		AtomicInteger staleAccepted = new AtomicInteger();
		AtomicBoolean pauseNext = new AtomicBoolean();
		AtomicInteger pausesUnderWay = new AtomicInteger();
		long start = System.nanoTime();
		long end = start + RUN_TIME.toNanos();
		// The run lasts RUN_TIME, or longer on a machine too loaded to go through
		// enough sections and faults in that time: it ends on counts, not on a clock.
		long cap = System.nanoTime() + MOST_RUN_TIME.toNanos();
		AtomicBoolean running = new AtomicBoolean(true);
		List<Thread> threads = new ArrayList<>();
		for (int n = 0; n < nodes.size(); n++) {
			CuratorLocks node = nodes.get(n);
			for (LockShape shape : SHAPES) {
				for (int t = 0; t < 2; t++) {
					int participant = n * 2 + t;
					SectionProbe probe = probes.get(shape);
					Thread thread = new Thread(() -> {
						while (running.get()) {
							try (LockHandle handle = shape.shared(node, path(shape), participant)
								.acquire(Duration.ofSeconds(2))) {
								long section = sections.incrementAndGet();
								sectionsByShape.get(shape).incrementAndGet();
								probe.enter(handle);
								try {
									if (handle.kind() == LockKind.READ || handle.kind() == LockKind.SEMAPHORE) {
										// Shared holders: what matters is who is inside,
										// and for how long.
										LockSupport.parkNanos(TimeUnit.MILLISECONDS
											.toNanos(ThreadLocalRandom.current().nextInt(1, 4)));
										continue;
									}
									String key = path(shape);
									long token = handle.fencingToken();
									long seen = store.read(key, token).map(Counted::value).orElse(0L);
									handle.assertHeld();
									if (pauseNext.get()) {
										// Counted before the claim, so that the end of
										// the run sees every pause that took place.
										pausesUnderWay.incrementAndGet();
										try {
											if (pauseNext.compareAndSet(true, false)) {
												// A pause (a long GC, say) after the
												// check: the session expires meanwhile,
												// and a newer holder uses the store
												// before this write arrives.
												pausedHolders.incrementAndGet();
												Faults.expireSession(node.client());
												await().atMost(Duration.ofSeconds(15))
													.pollInterval(Duration.ofMillis(20))
													.until(() -> store.highestToken(key) > token);
											}
										}
										finally {
											pausesUnderWay.decrementAndGet();
										}
									}
									store.writeOrThrow(key, new Counted(seen + 1, section), token);
									completed.add(section);
									if (!handle.isHeld()) {
										staleAccepted.incrementAndGet();
									}
								}
								catch (FencedStore.StaleTokenException ex) {
									// Rejected by the store: counted there.
								}
								catch (LockLostException ex) {
									lostBeforeWrite.incrementAndGet();
								}
								finally {
									probe.exit(handle);
								}
							}
							catch (DistributedLockException ex) {
								acquireFailures.incrementAndGet();
							}
							catch (Exception ex) {
								throw new IllegalStateException(ex);
							}
						}
					}, "node" + n + "-" + shape + "-" + t);
					thread.start();
					threads.add(thread);
				}
			}
		}
		int expirations = 0;
		long nextPause = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		// Past the planned time, the run goes on (up to its cap) until what the
		// assertions below count on was seen: expirations, sections of every shape, the
		// semaphore full.
		while (System.nanoTime() < end - TimeUnit.SECONDS.toNanos(1)
				|| (System.nanoTime() < cap && !(expirations >= FEWEST_EXPIRATIONS
						&& SHAPES.stream().allMatch((shape) -> sectionsByShape.get(shape).get() > FEWEST_SECTIONS)
						&& probes.get(LockShape.SEMAPHORE).mostInside() == LockShape.PERMITS))) {
			long pause = ThreadLocalRandom.current().nextLong(1000, 3000);
			long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pause);
			await().atMost(Duration.ofSeconds(5)).until(() -> System.nanoTime() >= until);
			if (System.nanoTime() >= nextPause) {
				pauseNext.set(true);
				nextPause = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
			}
			else {
				CuratorLocks victim = nodes.get(ThreadLocalRandom.current().nextInt(nodes.size()));
				Faults.expireSession(victim.client());
				expirations++;
			}
		}
		// A paused holder waits for a newer holder to use the store, so the others
		// go on until every pause has seen one.
		pauseNext.set(false);
		await().atMost(Duration.ofSeconds(30)).until(() -> pausesUnderWay.get() == 0);
		running.set(false);
		long ranSeconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
		for (Thread thread : threads) {
			thread.join(30_000);
			assertThat(thread.isAlive()).as("%s finished", thread.getName()).isFalse();
		}

		List<Long> accepted = new ArrayList<>();
		for (LockShape shape : List.of(LockShape.MUTEX, LockShape.READ_WRITE)) {
			List<FencedStore.Write<String, Counted>> writes = store.getAcceptedWrites(path(shape));
			// Mutual exclusion: each accepted write saw the one before it.
			for (int i = 0; i < writes.size(); i++) {
				assertThat(writes.get(i).value().value()).as("%s: accepted write #%d", shape, i).isEqualTo(i + 1);
			}
			writes.forEach((write) -> accepted.add(write.value().section()));
		}
		for (LockShape shape : SHAPES) {
			SectionProbe probe = probes.get(shape);
			// ZooKeeper never grants a lock beyond its limit. A holder may still believe
			// it holds the lock after the server ended its hold (a late notice, measured
			// below): the store's fencing is what keeps its writes out.
			assertThat(probe.doubleGrants()).as("%s granted beyond its limit: %s", shape, probe.details()).isZero();
			assertThat(sectionsByShape.get(shape).get()).as("%s sections", shape).isGreaterThan(FEWEST_SECTIONS);
		}
		assertThat(probes.get(LockShape.SEMAPHORE).mostInside()).isEqualTo(LockShape.PERMITS);
		// Only sections that checked their lock just before writing were accepted, and no
		// completed section's write is missing.
		assertThat(accepted).containsExactlyInAnyOrderElementsOf(completed);
		// A paused holder whose successor already used the store is always turned away.
		assertThat(store.getRejectedCount()).isGreaterThanOrEqualTo(pausedHolders.get());
		assertThat(staleAccepted.get()).isZero();
		assertThat(expirations).isGreaterThanOrEqualTo(FEWEST_EXPIRATIONS);
		// Nothing is left behind: no lock node, no watch.
		for (LockShape shape : SHAPES) {
			for (String lockNode : shape.lockNodes(path(shape))) {
				await().atMost(Duration.ofSeconds(15))
					.untilAsserted(() -> assertThat(Faults.children(nodes.get(0).client(), lockNode)).isEmpty());
			}
		}
		await().atMost(Duration.ofSeconds(15))
			.untilAsserted(
					() -> assertThat(ServerWatches.watchedLockPaths(this.zookeeper.server().getPort())).isEmpty());
		StringBuilder report = new StringBuilder();
		for (LockShape shape : SHAPES) {
			SectionProbe probe = probes.get(shape);
			report.append(shape)
				.append(": ")
				.append(sectionsByShape.get(shape))
				.append(" sections, ")
				.append(probe.doubleGrants())
				.append(" double grants, ")
				.append(probe.lateNotices())
				.append(" late notices; ");
		}
		System.out.println("[measure] checker over " + ranSeconds + " s, 3 nodes x 6 threads: " + report + expirations
				+ " random session expirations + " + pausedHolders.get() + " paused holders, "
				+ store.getRejectedCount() + " stale fenced operations rejected, " + lostBeforeWrite.get()
				+ " sections stopped by assertHeld, " + acquireFailures.get() + " acquisitions timed out or failed, "
				+ (accepted.size() - completed.size()) + " lost writes, 0 nodes and 0 watches left");
	}

	private static String path(LockShape shape) {
		return "checker/" + shape.name().toLowerCase();
	}

	/** A counter's value, with the critical section that wrote it. */
	private record Counted(long value, long section) {
	}

}
