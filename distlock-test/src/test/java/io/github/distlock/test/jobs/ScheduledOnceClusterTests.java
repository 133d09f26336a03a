package io.github.distlock.test.jobs;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.distlock.core.JobOutcome;
import io.github.distlock.core.JobRun;
import io.github.distlock.core.ScheduledJobs;
import io.github.distlock.test.DistlockNode;
import io.github.distlock.test.DistlockZooKeeperExtension;
import io.github.distlock.test.TestZooKeeper;
import io.github.distlock.test.jobs.JobApplication.Jobs;
import io.github.distlock.test.jobs.JobApplication.RunLog;
import io.github.distlock.testsupport.SettableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @ScheduledOnce} across application instances on one real ZooKeeper: every slot
 * of the schedule runs once, whatever the instances' clocks and schedulers do. The
 * instances' clocks are {@link SettableClock}s on a common time the test sets; the test
 * fires an instance's job by calling it when that instance's clock reads the slot, as its
 * scheduler would (the jobs' {@code @Scheduled} methods are not scheduled here), so that
 * nothing depends on how fast the machine is. The last test runs the real scheduler on
 * the system clock.
 */
class ScheduledOnceClusterTests {

	/** An even second: the slots of the jobs' cron are the even seconds. */
	private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

	@RegisterExtension
	static DistlockZooKeeperExtension zookeeper = new DistlockZooKeeperExtension();

	private final AtomicReference<Instant> now = new AtomicReference<>(T0);

	private final ExecutorService schedulers = Executors.newCachedThreadPool();

	@BeforeEach
	void clearLog() {
		RunLog.clear();
	}

	@AfterEach
	void stopSchedulers() {
		RunLog.gate.countDown();
		this.schedulers.shutdownNow();
	}

	@Test
	void threeInstancesWithClocksFourSecondsApartRunEverySlotOnce(TestZooKeeper server) throws Exception {
		List<Instance> instances = start(server, -2, 0, 2);
		// Each step of one second of common time fires every instance whose clock reads
		// a slot, all at once.
		Instant first = T0.plusSeconds(4);
		Instant last = first.plusSeconds(2 * 29);
		for (Instant time = first.minusSeconds(2); !time.isAfter(last.plusSeconds(2)); time = time.plusSeconds(1)) {
			this.now.set(time);
			fireWhereClockReadsASlot(instances, first, last);
		}
		Map<Instant, List<String>> runs = RunLog.bySlot("report");
		assertThat(runs.keySet()).as("slots run").containsExactlyElementsOf(slots(first, last));
		assertThat(runs).allSatisfy((slot, ran) -> assertThat(ran).as("instances that ran %s", slot).hasSize(1));
		JobRun lastRun = instances.get(0).jobs().lastRun("report").orElseThrow();
		assertThat(lastRun.slot()).isEqualTo(last);
		assertThat(lastRun.outcome()).isEqualTo(JobOutcome.SUCCEEDED);
	}

	@Test
	void aSchedulerStalledForLongerThanAPeriodDoesNotRunASlotAgain(TestZooKeeper server) throws Exception {
		List<Instance> instances = start(server, -2, 0, 2);
		Instance fast = instances.get(2);
		Instant first = T0.plusSeconds(4);
		Instant last = first.plusSeconds(2 * 9);
		Instant stallFrom = first.plusSeconds(6);
		Future<?> stalled = null;
		for (Instant time = first.minusSeconds(2); !time.isAfter(last.plusSeconds(2)); time = time.plusSeconds(1)) {
			this.now.set(time);
			List<Instance> firing = new ArrayList<>(instances);
			Instant fastClock = time.plus(fast.clock().offset());
			if (!fastClock.isBefore(stallFrom) && fastClock.isBefore(stallFrom.plusSeconds(3))) {
				// The fast instance's scheduler thread is stuck for three seconds (a
				// period and a half): its firing for stallFrom comes three seconds late.
				firing.remove(fast);
			}
			else if (fastClock.equals(stallFrom.plusSeconds(3))) {
				stalled = this.schedulers.submit(() -> {
					fast.app().report();
					return null;
				});
			}
			fireWhereClockReadsASlot(firing, first, last);
			if (stalled != null) {
				stalled.get();
				stalled = null;
			}
		}
		Map<Instant, List<String>> runs = RunLog.bySlot("report");
		assertThat(runs.keySet()).containsExactlyElementsOf(slots(first, last));
		assertThat(runs).allSatisfy((slot, ran) -> assertThat(ran).as("instances that ran %s", slot).hasSize(1));
		// The late firing claimed the slot its clock read when it came.
		assertThat(runs.get(stallFrom.plusSeconds(2))).containsExactly(fast.name());
		assertThat(runs.get(stallFrom)).doesNotContain(fast.name());
	}

	@Test
	void afterEveryInstanceStoppedForFiveSlotsRunOnceCatchesUpOnceAndSkipDoesNot(TestZooKeeper server)
			throws Exception {
		List<Instance> instances = start(server, 0, 0);
		for (Instant slot = T0; slot.isBefore(T0.plusSeconds(6)); slot = slot.plusSeconds(2)) {
			this.now.set(slot);
			fireAll(instances, "report");
			fireAll(instances, "digest");
		}
		assertThat(RunLog.bySlot("digest")).hasSize(3);
		server.closeNodes();
		// Slots T0+6 .. T0+14 pass with no instance up.
		this.now.set(T0.plusSeconds(15));
		List<Instance> restarted = start(server, 0, 0);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> Thread.getAllStackTraces()
				.keySet()
				.stream()
				.noneMatch((thread) -> thread.getName().startsWith("distlock-catch-up-")));
		assertThat(RunLog.bySlot("digest")).as("digest, RUN_ONCE")
			.containsOnlyKeys(T0, T0.plusSeconds(2), T0.plusSeconds(4), T0.plusSeconds(14))
			.allSatisfy((slot, ran) -> assertThat(ran).hasSize(1));
		assertThat(RunLog.bySlot("report")).as("report, SKIP")
			.containsOnlyKeys(T0, T0.plusSeconds(2), T0.plusSeconds(4));
		assertThat(restarted.get(0).jobs().lastRun("digest").orElseThrow().slot()).isEqualTo(T0.plusSeconds(14));
		// The next slot runs as usual, once.
		this.now.set(T0.plusSeconds(16));
		fireAll(restarted, "report");
		fireAll(restarted, "digest");
		assertThat(RunLog.bySlot("report").get(T0.plusSeconds(16))).hasSize(1);
		assertThat(RunLog.bySlot("digest").get(T0.plusSeconds(16))).hasSize(1);
	}

	@Test
	void aRunWhoseSessionExpiredIsReportedInterruptedAndNotRunAgain(TestZooKeeper server) throws Exception {
		List<Instance> instances = start(server, 0, 0);
		Instance runner = instances.get(0);
		Instance other = instances.get(1);
		RunLog.gate = new CountDownLatch(1);
		RunLog.gated = runner.name();
		this.now.set(T0);
		Future<?> run = this.schedulers.submit(() -> {
			runner.app().report();
			return null;
		});
		await().atMost(Duration.ofSeconds(10))
			.until(() -> runner.jobs().lastRun("report").map(JobRun::outcome).orElse(null) == JobOutcome.RUNNING);
		server.expireSession(runner.node());
		// The other instance fires the same slot: the slot is taken, although the lock
		// is free now.
		other.app().report();
		assertThat(RunLog.bySlot("report").get(T0)).containsExactly(runner.name());
		// The next slot runs on the other instance, which finds the first run still
		// recorded as running under a lock that is no longer held: interrupted.
		this.now.set(T0.plusSeconds(2));
		other.app().report();
		assertThat(other.jobs().runs("report").get(1).outcome()).isEqualTo(JobOutcome.INTERRUPTED);
		// The first run ends: it knows its lock was lost, and records itself interrupted.
		RunLog.gate.countDown();
		run.get();
		List<JobRun> runs = other.jobs().runs("report");
		assertThat(runs).extracting(JobRun::slot).containsExactly(T0.plusSeconds(2), T0);
		assertThat(runs.get(1).outcome()).isEqualTo(JobOutcome.INTERRUPTED);
		assertThat(runs.get(1).node()).contains(runner.name());
		assertThat(runs.get(1).endedAt()).isNotNull();
		assertThat(runs.get(0).outcome()).isEqualTo(JobOutcome.SUCCEEDED);
		assertThat(RunLog.bySlot("report").get(T0)).hasSize(1);
		// Firing the interrupted slot again, anywhere, does not run it.
		this.now.set(T0);
		fireAll(instances, "report");
		assertThat(RunLog.bySlot("report").get(T0)).hasSize(1);
	}

	@Test
	void aPausedJobRunsOnNoInstanceUntilResumed(TestZooKeeper server) throws Exception {
		List<Instance> instances = start(server, -2, 0, 2);
		instances.get(0).jobs().pause("report");
		assertThat(instances).allSatisfy((instance) -> assertThat(instance.jobs().isPaused("report")).isTrue());
		for (Instant time = T0.minusSeconds(2); time.isBefore(T0.plusSeconds(8)); time = time.plusSeconds(1)) {
			this.now.set(time);
			fireWhereClockReadsASlot(instances, T0, T0.plusSeconds(6));
		}
		assertThat(RunLog.bySlot("report")).isEmpty();
		instances.get(2).jobs().resume("report");
		assertThat(instances.get(1).jobs().isPaused("report")).isFalse();
		this.now.set(T0.plusSeconds(8));
		for (Instance instance : instances) {
			instance.app().report();
		}
		assertThat(RunLog.bySlot("report")).containsOnlyKeys(T0.plusSeconds(10), T0.plusSeconds(8), T0.plusSeconds(6));
		assertThat(RunLog.bySlot("report")).allSatisfy((slot, ran) -> assertThat(ran).hasSize(1));
	}

	@Test
	void twoInstancesStartedAtOnceOnAnEmptyNamespaceRunEachSlotOnce(TestZooKeeper server) throws Exception {
		List<Future<DistlockNode>> starting = new ArrayList<>();
		for (int index = 1; index <= 2; index++) {
			String name = "ticker-" + index;
			starting.add(this.schedulers.submit(() -> server.startNode(
					new SpringApplicationBuilder(JobApplication.class).properties("spring.application.name=" + name),
					"--jobs.scheduling=true")));
		}
		List<DistlockNode> nodes = new ArrayList<>();
		for (Future<DistlockNode> node : starting) {
			nodes.add(node.get());
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> RunLog.bySlot("tick").size() >= 6);
		nodes.forEach(DistlockNode::close);
		Map<Instant, List<String>> runs = RunLog.bySlot("tick");
		System.out.println("[measure] tick runs by slot: " + runs);
		assertThat(runs).allSatisfy((slot, ran) -> assertThat(ran).as("instances that ran %s", slot).hasSize(1));
		assertThat(runs.keySet()).allMatch((slot) -> slot.toEpochMilli() % 500 == 0);
	}

	/** Start instances whose clocks are off the common time by the given seconds. */
	private List<Instance> start(TestZooKeeper server, int... offsets) {
		List<Instance> instances = new ArrayList<>();
		for (int offset : offsets) {
			SettableClock clock = new SettableClock(this.now, Duration.ofSeconds(offset));
			String name = "instance" + (offset < 0 ? "-minus-" : "-plus-") + Math.abs(offset) + "-"
					+ (instances.size() + 1);
			DistlockNode node = server.startNode(
					new SpringApplicationBuilder(JobApplication.class).properties("spring.application.name=" + name)
						.initializers((ConfigurableApplicationContext context) -> context.getBeanFactory()
							.registerSingleton("clock", clock)));
			instances.add(new Instance(name, node, clock, node.getBean(Jobs.class), node.getBean(ScheduledJobs.class)));
		}
		return instances;
	}

	/**
	 * Fire the report job of every instance whose clock reads a slot in [first, last].
	 */
	private void fireWhereClockReadsASlot(List<Instance> instances, Instant first, Instant last) throws Exception {
		List<Future<?>> firings = new ArrayList<>();
		for (Instance instance : instances) {
			Instant clock = instance.clock().instant();
			if (clock.getEpochSecond() % 2 == 0 && !clock.isBefore(first) && !clock.isAfter(last)) {
				firings.add(this.schedulers.submit(() -> {
					instance.app().report();
					return null;
				}));
			}
		}
		for (Future<?> firing : firings) {
			firing.get();
		}
	}

	private void fireAll(List<Instance> instances, String job) throws Exception {
		List<Future<?>> firings = new ArrayList<>();
		for (Instance instance : instances) {
			firings.add(this.schedulers.submit(() -> {
				if (job.equals("report")) {
					instance.app().report();
				}
				else {
					instance.app().digest();
				}
				return null;
			}));
		}
		for (Future<?> firing : firings) {
			firing.get();
		}
	}

	private static List<Instant> slots(Instant first, Instant last) {
		List<Instant> slots = new ArrayList<>();
		for (Instant slot = first; !slot.isAfter(last); slot = slot.plusSeconds(2)) {
			slots.add(slot);
		}
		return slots;
	}

	private record Instance(String name, DistlockNode node, SettableClock clock, Jobs app, ScheduledJobs jobs) {
	}

}
