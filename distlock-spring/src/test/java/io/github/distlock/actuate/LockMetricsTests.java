package io.github.distlock.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.micrometer.common.KeyValue;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockState;
import io.github.distlock.core.LockTimeoutException;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.NodeOptions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link LockObservations} against a real ZooKeeper server, a
 * {@link TestObservationRegistry} and, through Micrometer's
 * {@link DefaultMeterObservationHandler} (the handler Boot installs), a real
 * {@link SimpleMeterRegistry}: exactly the documented meters, names and tags, with the
 * path template, never the resolved path, each meter from the observations alone.
 */
class LockMetricsTests {

	@RegisterExtension
	final ZooKeeperExtension zookeeper = new ZooKeeperExtension(NodeOptions.defaults()
		.withNamespace("distlock-metrics")
		.withSessionTimeout(Duration.ofSeconds(4))
		.withApplicationName("metrics-test"));

	private final SimpleMeterRegistry meterRegistry = new SimpleMeterRegistry();

	private final TestObservationRegistry observationRegistry = TestObservationRegistry.create();

	private final Map<Observation.Context, List<String>> events = new ConcurrentHashMap<>();

	private CuratorLocks observed;

	private CuratorLocks other;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@BeforeEach
	void start() throws Exception {
		this.observationRegistry.observationConfig()
			.observationHandler(new EventRecorder())
			.observationHandler(new DefaultMeterObservationHandler(this.meterRegistry));
		this.observed = this.zookeeper.newNode();
		this.observed.addEventListener(new LockObservations(this.observationRegistry));
		this.other = this.zookeeper.newNode();
	}

	@AfterEach
	void stop() {
		this.executor.shutdownNow();
	}

	@Test
	void acquisitionAndHoldAreTimedByTemplateAndOutcome() throws Exception {
		LockPath path = LockPath.of("orders", "42");
		try (LockHandle handle = this.observed.mutex(path).acquire(Duration.ofSeconds(5))) {
			assertThat(activeTasks("distlock.lock.hold", "mutex", "orders/{}")).isEqualTo(1);
			assertThat(activeTasks("distlock.lock.acquire", "mutex", "orders/{}")).isZero();
		}
		assertThat(activeTasks("distlock.lock.hold", "mutex", "orders/{}")).isZero();
		assertThat(acquireCount("mutex", "orders/{}", "acquired")).isOne();
		assertThat(this.meterRegistry.get("distlock.lock.hold")
			.tags("kind", "mutex", "name", "orders/{}", "lost", "false", "error", "none")
			.timer()
			.count()).isOne();
		assertThat(this.meterRegistry.find("distlock.lock.hold.lost").counter()).isNull();
		assertThat(this.meterRegistry.getMeters()).allSatisfy((meter) -> {
			assertThat(meter.getId().getName()).isIn("distlock.lock.acquire", "distlock.lock.acquire.active",
					"distlock.lock.hold", "distlock.lock.hold.active");
			assertThat(meter.getId().getTags()).extracting(Tag::getKey)
				.isSubsetOf("kind", "name", "outcome", "lost", "error");
			assertThat(meter.getId().getTags()).extracting(Tag::getValue).doesNotContain("orders/42");
		});
		TestObservationRegistryAssert.assertThat(this.observationRegistry)
			.hasNumberOfObservationsWithNameEqualTo("distlock.lock.acquire", 1)
			.hasNumberOfObservationsWithNameEqualTo("distlock.lock.hold", 1)
			.hasHandledContextsThatSatisfy((contexts) -> {
				Observation.Context acquire = contexts.get(0);
				assertThat(acquire.getLowCardinalityKeyValues()).containsExactlyInAnyOrder(KeyValue.of("kind", "mutex"),
						KeyValue.of("name", "orders/{}"), KeyValue.of("outcome", "acquired"));
				assertThat(acquire.getHighCardinalityKeyValue("path").getValue()).isEqualTo("orders/42");
				Observation.Context hold = contexts.get(1);
				assertThat(hold.getLowCardinalityKeyValues()).containsExactlyInAnyOrder(KeyValue.of("kind", "mutex"),
						KeyValue.of("name", "orders/{}"), KeyValue.of("lost", "false"));
				assertThat(hold.getHighCardinalityKeyValue("fencing.token").getValue()).isNotEqualTo("-1");
				assertThat(this.events.get(hold)).isNull();
			});
	}

	@Test
	void userConventionReplacesTheKeysButNotTheNames() throws Exception {
		TestObservationRegistry registry = TestObservationRegistry.create();
		CuratorLocks locks = this.zookeeper.newNode();
		locks.addEventListener(new LockObservations(registry, new DefaultLockObservationConvention() {

			@Override
			public io.micrometer.common.KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
				return super.getLowCardinalityKeyValues(context).and("team", "shop");
			}

		}));
		locks.mutex("custom").acquire(Duration.ofSeconds(5)).close();
		TestObservationRegistryAssert.assertThat(registry)
			.hasNumberOfObservationsWithNameEqualTo("distlock.lock.acquire", 1)
			.hasNumberOfObservationsWithNameEqualTo("distlock.lock.hold", 1)
			.hasHandledContextsThatSatisfy((contexts) -> assertThat(contexts).allSatisfy(
					(context) -> assertThat(context.getLowCardinalityKeyValue("team").getValue()).isEqualTo("shop")));
	}

	@Test
	void timeoutIsRecordedWithItsOutcomeAndWaitersAreCounted() throws Exception {
		LockPath path = LockPath.parse("reports/daily");
		try (LockHandle held = this.other.mutex(path).acquire(Duration.ofSeconds(5))) {
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> this.observed.mutex(path).acquire(Duration.ofMillis(300)));
			Future<Long> waiter = this.executor.submit(() -> {
				try (LockHandle handle = this.observed.mutex(path).acquire(Duration.ofSeconds(20))) {
					return handle.fencingToken();
				}
			});
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(
						() -> assertThat(activeTasks("distlock.lock.acquire", "mutex", "reports/daily")).isOne());
			assertThat(this.observed.waitingAcquisitions()).singleElement()
				.satisfies((waiting) -> assertThat(waiting.path()).isEqualTo(path));
			held.close();
			assertThat(waiter.get(10, TimeUnit.SECONDS)).isPositive();
		}
		assertThat(this.observed.waitingAcquisitions()).isEmpty();
		assertThat(activeTasks("distlock.lock.acquire", "mutex", "reports/daily")).isZero();
		assertThat(acquireCount("mutex", "reports/daily", "timed_out")).isOne();
		assertThat(acquireCount("mutex", "reports/daily", "acquired")).isOne();
		assertThat(this.meterRegistry.get("distlock.lock.acquire")
			.tags("outcome", "timed_out")
			.timer()
			.totalTime(TimeUnit.MILLISECONDS)).isPositive();
		TestObservationRegistryAssert.assertThat(this.observationRegistry)
			.hasNumberOfObservationsWithNameEqualTo("distlock.lock.acquire", 2)
			.hasNumberOfObservationsWithNameEqualTo("distlock.lock.hold", 1)
			.hasAnObservationWithAKeyValue("outcome", "timed_out")
			.hasAnObservationWithAKeyValue("outcome", "acquired")
			.hasAnObservationWithAKeyValue("lost", "false");
	}

	@Test
	void failureIsRecordedAsError() throws Exception {
		try (LockHandle held = this.other.semaphore("pool", 2).acquire(Duration.ofSeconds(5))) {
			assertThatExceptionOfType(LockConfigurationException.class)
				.isThrownBy(() -> this.observed.semaphore("pool", 3).acquire(Duration.ofSeconds(5)));
		}
		assertThat(this.meterRegistry.get("distlock.lock.acquire")
			.tags("kind", "semaphore", "name", "pool", "outcome", "failed", "error", "LockConfigurationException")
			.timer()
			.count()).isOne();
		TestObservationRegistryAssert.assertThat(this.observationRegistry)
			.hasHandledContextsThatSatisfy((contexts) -> assertThat(contexts).singleElement().satisfies((context) -> {
				assertThat(context.getName()).isEqualTo("distlock.lock.acquire");
				assertThat(context.getLowCardinalityKeyValue("outcome").getValue()).isEqualTo("failed");
				assertThat(context.getError()).isInstanceOf(LockConfigurationException.class);
			}));
	}

	@Test
	void lossIsCountedAndObserved() throws Exception {
		LockPath path = LockPath.of("jobs", "nightly run");
		LockHandle handle = this.observed.nonReentrantMutex(path).acquire(Duration.ofSeconds(5));
		Faults.expireSession(this.observed.client());
		await().atMost(Duration.ofSeconds(20)).until(() -> handle.state() == LockState.LOST);
		// The handle shows the loss at once; listeners are told right after.
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.meterRegistry.find("distlock.lock.hold.lost")
				.tags("kind", "mutex", "name", "jobs/{}")
				.counter()).isNotNull().satisfies((lost) -> assertThat(lost.count()).isOne()));
		handle.close();
		assertThat(this.meterRegistry.get("distlock.lock.hold")
			.tags("kind", "mutex", "name", "jobs/{}", "lost", "true")
			.timer()
			.count()).isOne();
		TestObservationRegistryAssert.assertThat(this.observationRegistry)
			.hasNumberOfObservationsWithNameEqualTo("distlock.lock.hold", 1)
			.hasHandledContextsThatSatisfy((contexts) -> assertThat(contexts).last().satisfies((context) -> {
				assertThat(context.getName()).isEqualTo("distlock.lock.hold");
				assertThat(context.getLowCardinalityKeyValue("lost").getValue()).isEqualTo("true");
				assertThat(context.getLowCardinalityKeyValue("name").getValue()).isEqualTo("jobs/{}");
				assertThat(this.events.get(context)).containsExactly("lost");
			}));
	}

	private double acquireCount(String kind, String name, String outcome) {
		return this.meterRegistry.get("distlock.lock.acquire")
			.tags("kind", kind, "name", name, "outcome", outcome)
			.timer()
			.count();
	}

	private int activeTasks(String observation, String kind, String name) {
		return this.meterRegistry.get(observation + ".active")
			.tags("kind", kind, "name", name)
			.longTaskTimer()
			.activeTasks();
	}

	private final class EventRecorder implements ObservationHandler<Observation.Context> {

		@Override
		public void onEvent(Observation.Event event, Observation.Context context) {
			LockMetricsTests.this.events.computeIfAbsent(context, (key) -> new CopyOnWriteArrayList<>())
				.add(event.getName());
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return true;
		}

	}

}
