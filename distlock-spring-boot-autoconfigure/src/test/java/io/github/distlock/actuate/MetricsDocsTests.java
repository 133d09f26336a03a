package io.github.distlock.actuate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.core.JobSchedule;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.Locks;
import io.github.distlock.core.ScheduledJob;
import io.github.distlock.curator.CuratorLeadership;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.curator.CuratorScheduledJobs;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Keeps the metrics table of {@code docs/operations.md} in step with the meters a running
 * application with actuator (Micrometer metrics and observations) registers for distlock:
 * the same names, types and tag keys, in both directions.
 */
class MetricsDocsTests {

	private static final Path DOCS = Path.of("..", "docs", "operations.md");

	private static final Pattern ROW = Pattern.compile("^\\| `(distlock\\.[a-z.]+)` \\| ([a-z ]+) \\| ([^|]*) \\|",
			Pattern.MULTILINE);

	private static final Pattern TAG = Pattern.compile("`([a-z.]+)`");

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void operationsDocsListEveryMeterDistlockRegistersWithItsTypeAndTags() throws Exception {
		try (ConfigurableApplicationContext context = start(zookeeper)) {
			exerciseEveryOutcome(context);
			assertThat(documentedMeters()).as("meters in the table of %s (actual) and registered (expected)", DOCS)
				.isEqualTo(registeredMeters(context.getBean(MeterRegistry.class)));
		}
	}

	static ConfigurableApplicationContext start(ZooKeeperExtension zookeeper) {
		return new SpringApplicationBuilder(MetricsApplication.class).web(WebApplicationType.NONE)
			.run(DistlockContextRunners.arguments(zookeeper, "distlock.leadership.groups=docs"));
	}

	/** Acquire and release, time out, and lose a lock, so every meter is created. */
	static void exerciseEveryOutcome(ConfigurableApplicationContext context) throws Exception {
		Locks locks = context.getBean(Locks.class);
		// A tenure granted, then revoked: the leader gauge and both transitions.
		Leadership leadership = context.getBean(Leadership.class);
		long epoch = leadership.awaitLeadership("docs").get(20, java.util.concurrent.TimeUnit.SECONDS);
		// Seen leading by the metrics' observation first, so that the change is a
		// fail-over (the leaderless gauge is registered at startup).
		await().atMost(Duration.ofSeconds(20))
			.until(() -> leadership.observed("docs").filter((leader) -> leader.epoch() == epoch).isPresent());
		leadership.relinquish("docs");
		MeterRegistry meters = context.getBean(MeterRegistry.class);
		await().atMost(Duration.ofSeconds(20))
			.until(() -> meters.find("distlock.leadership.transitions").tags("transition", "revoked").counter() != null
					&& meters.find("distlock.leadership.failover").timer() != null);
		// A hand-off to another member (on the same client) gives the hand-off timer.
		try (CuratorLeadership other = new CuratorLeadership(context.getBean(CuratorLocks.class), "docs-other")) {
			leadership.awaitLeadership("docs").get(20, java.util.concurrent.TimeUnit.SECONDS);
			other.join("docs");
			await().atMost(Duration.ofSeconds(20))
				.ignoreExceptions()
				.until(() -> leadership.inspect("docs").memberIds().contains("docs-other"));
			leadership.transferTo("docs", "docs-other").get(20, java.util.concurrent.TimeUnit.SECONDS);
			await().atMost(Duration.ofSeconds(20))
				.until(() -> meters.find("distlock.leadership.handoff").timer() != null);
		}
		try (LockHandle held = locks.mutex("docs/held").acquire(Duration.ofSeconds(5))) {
			CompletableFuture<Void> other = CompletableFuture
				.runAsync(() -> assertThatExceptionOfType(LockTimeoutException.class)
					.isThrownBy(() -> locks.mutex("docs/held").acquire(Duration.ofMillis(100))));
			other.get();
		}
		// An acquisition that fails (other permits than the holder's) gives the
		// failed outcome.
		try (LockHandle pool = locks.semaphore("docs/pool", 2).acquire(Duration.ofSeconds(5))) {
			assertThatExceptionOfType(LockConfigurationException.class)
				.isThrownBy(() -> locks.semaphore("docs/pool", 3).acquire(Duration.ofSeconds(5)));
		}
		LockHandle lost = locks.mutex("docs/lost").acquire(Duration.ofSeconds(5));
		Faults.expireSession(context.getBean(CuratorFramework.class));
		await().atMost(Duration.ofSeconds(20)).until(() -> lost.state() == LockState.LOST);
		// The handle shows the loss at once; listeners (the observation) right after.
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		await().atMost(Duration.ofSeconds(5))
			.until(() -> registry.find("distlock.lock.hold.lost").tags("name", "docs/lost").counter() != null
					&& registry.find("distlock.lock.hold.lost").tags("name", "docs/lost").counter().count() == 1);
		lost.close();
		// The client reconnects with a new session; a job's firing tries its lock once,
		// and a try-once fails while the locks still see the connection lost.
		await().atMost(Duration.ofSeconds(20)).until(() -> {
			Optional<LockHandle> probe = locks.mutex("docs/connected").tryAcquire(Duration.ZERO);
			probe.ifPresent(LockHandle::close);
			return probe.isPresent();
		});
		exerciseAJob(context);
	}

	/** Run a job once per slot, skip a firing and miss slots, so the job meters exist. */
	private static void exerciseAJob(ConfigurableApplicationContext context) throws Exception {
		CuratorScheduledJobs jobs = context.getBean(CuratorScheduledJobs.class);
		ScheduledJob job = new ScheduledJob("docs", new JobSchedule() {

			@Override
			public Instant slotAt(Instant time) {
				return time.truncatedTo(ChronoUnit.HOURS);
			}

			@Override
			public Instant slotAfter(Instant slot) {
				return slot.plus(1, ChronoUnit.HOURS);
			}

			@Override
			public String description() {
				return "hourly";
			}

		});
		jobs.register(job);
		context.getBean(JobMetrics.class).bindJobs();
		Instant slot = Instant.parse("2030-01-01T00:00:00Z");
		jobs.fire(job, slot, () -> null);
		jobs.fire(job, slot, () -> null);
		jobs.fire(job, slot.plus(3, ChronoUnit.HOURS), () -> null);
		// A run whose session expires while it runs: interrupted.
		Locks locks = context.getBean(Locks.class);
		jobs.fire(job, slot.plus(4, ChronoUnit.HOURS), () -> {
			Faults.expireSession(context.getBean(CuratorFramework.class));
			await().atMost(Duration.ofSeconds(20))
				.until(() -> locks.heldLocks()
					.stream()
					.noneMatch((held) -> held.path().value().equals("jobs/docs") && held.state() == LockState.HELD));
			return null;
		});
		MeterRegistry registry = context.getBean(MeterRegistry.class);
		assertThat(registry.get(JobMetrics.RUNS).tags("outcome", "interrupted").timer().count()).isEqualTo(1);
		// An operator's action: its counter is registered with the first one.
		context.getBean(DistlockAdminOperations.class).pause("docs-operator", "docs", true);
		assertThat(registry.get(AdminActionMetrics.ACTIONS).tags("action", "pause").counter().count()).isOne();
	}

	private static Map<String, String> registeredMeters(MeterRegistry registry) {
		Map<String, Set<String>> tags = new TreeMap<>();
		Map<String, String> types = new TreeMap<>();
		for (Meter meter : registry.getMeters()) {
			String name = meter.getId().getName();
			if (name.startsWith("distlock.")) {
				String type = meter.getId().getType().name().replace('_', ' ').toLowerCase(Locale.ROOT);
				assertThat(types.put(name, type)).as("type of %s", name).isIn(null, type);
				tags.computeIfAbsent(name, (key) -> new TreeSet<>())
					.addAll(meter.getId().getTags().stream().map(Tag::getKey).toList());
			}
		}
		Map<String, String> meters = new TreeMap<>();
		types.forEach((name, type) -> meters.put(name, type + " " + tags.get(name)));
		assertThat(meters).isNotEmpty();
		return meters;
	}

	private static Map<String, String> documentedMeters() throws IOException {
		Matcher row = ROW.matcher(Files.readString(DOCS));
		Map<String, String> meters = new TreeMap<>();
		while (row.find()) {
			Set<String> tags = new TreeSet<>();
			Matcher tag = TAG.matcher(row.group(3));
			while (tag.find()) {
				tags.add(tag.group(1));
			}
			String described = row.group(2).trim() + " " + tags;
			assertThat(meters.put(row.group(1), described)).as("listed once: %s", row.group(1)).isNull();
		}
		return meters;
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class MetricsApplication {

	}

}
