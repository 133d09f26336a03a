package io.github.distlock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockKind;
import io.github.distlock.core.LockLostException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.FencedStore;
import io.github.distlock.testsupport.HolderProbe;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three nodes with four threads each increment a counter in a fencing-checked store under
 * one lock for 30 seconds while sessions expire at random (one every 1 to 3 seconds), and
 * now and then a holder "pauses" past its session's expiry before writing. Afterwards:
 * ZooKeeper never granted the lock twice (see {@link HolderProbe}), the accepted writes
 * form one unbroken sequence (no lost update), every accepted write comes from a section
 * that checked its lock just before writing, and every completed section's write is
 * there.
 */
class MutualExclusionCheckerTest {

	private static final Duration RUN_TIME = Duration.ofSeconds(30);

	private static final String KEY = "checker/counter";

	@RegisterExtension
	final ZooKeeperExtension zookeeper = ZooKeeperExtension.forFaults();

	@Test
	void noTwoHoldersNoStaleWriteAcceptedNothingLostUnderRandomSessionExpiry() throws Exception {
		List<CuratorLocks> nodes = List.of(this.zookeeper.newNode(), this.zookeeper.newNode(),
				this.zookeeper.newNode());
		FencedStore store = new FencedStore();
		HolderProbe probe = new HolderProbe(this.zookeeper.newClient(), "/" + LockKind.MUTEX.subtree() + "/" + KEY);
		Set<Long> completed = ConcurrentHashMap.newKeySet();
		AtomicLong sections = new AtomicLong();
		AtomicInteger lostBeforeWrite = new AtomicInteger();
		AtomicInteger acquireFailures = new AtomicInteger();
		AtomicInteger pausedHolders = new AtomicInteger();
		AtomicInteger staleAccepted = new AtomicInteger();
		AtomicBoolean pauseNext = new AtomicBoolean();
		long end = System.nanoTime() + RUN_TIME.toNanos();
		List<Thread> threads = new ArrayList<>();
		for (int n = 0; n < nodes.size(); n++) {
			CuratorLocks node = nodes.get(n);
			for (int t = 0; t < 4; t++) {
				Thread thread = new Thread(() -> {
					while (System.nanoTime() < end) {
						try (LockHandle handle = node.mutex(KEY).acquire(Duration.ofSeconds(2))) {
							long section = sections.incrementAndGet();
							probe.enter(handle);
							try {
								long token = LockContext.current().fencingToken();
								long seen = store.read(KEY, token);
								LockContext.current().assertHeld();
								if (pauseNext.compareAndSet(true, false)) {
									// A pause (such as a long GC) after the check: the
									// session expires meanwhile and a newer holder uses
									// the
									// store before this write arrives.
									pausedHolders.incrementAndGet();
									Faults.expireSession(node.client());
									await().atMost(Duration.ofSeconds(15))
										.pollInterval(Duration.ofMillis(20))
										.until(() -> store.highestToken(KEY) > token);
								}
								store.write(KEY, token, seen + 1, section);
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
				}, "node" + n + "-worker" + t);
				thread.start();
				threads.add(thread);
			}
		}
		int expirations = 0;
		long nextPause = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
		while (System.nanoTime() < end - TimeUnit.SECONDS.toNanos(1)) {
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
		for (Thread thread : threads) {
			thread.join(30_000);
			assertThat(thread.isAlive()).as("%s finished", thread.getName()).isFalse();
		}

		List<FencedStore.Write> writes = store.writes(KEY);
		// Mutual exclusion: each accepted write saw the one before it.
		for (int i = 0; i < writes.size(); i++) {
			assertThat(writes.get(i).value()).as("accepted write #%d", i).isEqualTo(i + 1);
		}
		// ZooKeeper never grants the lock twice. A holder may still believe it holds the
		// lock
		// after the server ended its hold (a late notice, measured below): the store's
		// fencing
		// is what keeps its writes out, as the assertions above and below show.
		assertThat(probe.doubleGrants()).as("lock granted twice: %s", probe.details()).isZero();
		// Only sections that checked their lock just before writing were accepted, and no
		// completed section's write is missing.
		assertThat(writes).extracting(FencedStore.Write::section).containsExactlyInAnyOrderElementsOf(completed);
		// A paused holder whose successor already used the store is always turned away.
		assertThat(store.rejected()).isGreaterThanOrEqualTo(pausedHolders.get());
		assertThat(staleAccepted.get()).isZero();
		assertThat(completed).hasSizeGreaterThan(100);
		assertThat(expirations).isGreaterThanOrEqualTo(8);
		System.out.println("[measure] checker: " + completed.size() + " completed sections (" + sections.get()
				+ " entered) in " + RUN_TIME.toSeconds() + " s by 3 nodes x 4 threads, " + expirations
				+ " random session expirations + " + pausedHolders.get() + " paused holders, " + store.rejected()
				+ " stale fenced operations rejected, " + lostBeforeWrite.get() + " sections stopped by assertHeld, "
				+ acquireFailures.get() + " acquisitions timed out or failed, " + probe.doubleGrants()
				+ " double grants, " + probe.lateNotices() + " late notices of a lost hold " + probe.details() + ", "
				+ (writes.size() - completed.size()) + " lost writes");
	}

}
