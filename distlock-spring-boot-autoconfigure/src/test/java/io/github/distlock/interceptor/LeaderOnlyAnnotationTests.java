package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import io.github.distlock.annotation.LeaderOnly;
import io.github.distlock.annotation.OnNotLeader;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.leadership.DistlockLeadershipAutoConfiguration;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LeadershipGrantedEvent;
import io.github.distlock.core.LeadershipRevokedEvent;
import io.github.distlock.curator.CuratorLeadership;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.NotLeaderException;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code @LeaderOnly} in applications: several instances (contexts) against one
 * ZooKeeper, each joining the elections of its annotated groups once started.
 */
class LeaderOnlyAnnotationTests {

	// The member id every instance of this class takes by default.
	private static final String MEMBER = CuratorLeadership.defaultMemberId("leader-only-test");

	private static final Duration WAIT = Duration.ofSeconds(30);

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void close() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	private ConfigurableApplicationContext start(String namespace, Class<?>... sources) {
		List<Class<?>> all = new ArrayList<>(List.of(sources));
		all.add(Infrastructure.class);
		SpringApplication application = new SpringApplication(all.toArray(Class[]::new));
		application.setWebApplicationType(WebApplicationType.NONE);
		ConfigurableApplicationContext context = application.run(
				"--distlock.zookeeper.connect-string=" + zookeeper.connectString(),
				"--distlock.zookeeper.namespace=" + namespace, "--spring.application.name=leader-only-test",
				"--spring.main.banner-mode=off");
		this.contexts.add(context);
		return context;
	}

	private static ConfigurableApplicationContext leaderOf(List<ConfigurableApplicationContext> contexts,
			String group) {
		await().atMost(WAIT)
			.until(() -> contexts.stream().filter((c) -> c.getBean(Leadership.class).isLeader(group)).count() == 1);
		return contexts.stream().filter((c) -> c.getBean(Leadership.class).isLeader(group)).findFirst().orElseThrow();
	}

	@Test
	void exactlyOneInstanceRunsTheBodyUnderLoadAndClosingTheLeaderHandsOverAtOnce() throws Exception {
		List<ConfigurableApplicationContext> nodes = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			nodes.add(start("load", LoadJob.class));
		}
		ConfigurableApplicationContext leader = leaderOf(nodes, "load");
		LoadJob.reset();
		// The callers go on until the next leader has run bodies too, however long the
		// hand-over takes on a loaded machine: no fixed time.
		AtomicBoolean stop = new AtomicBoolean();
		List<Thread> callers = new ArrayList<>();
		for (ConfigurableApplicationContext node : nodes) {
			LoadJob job = node.getBean(LoadJob.class);
			for (int t = 0; t < 4; t++) {
				Thread caller = new Thread(() -> {
					while (!stop.get()) {
						try {
							job.run();
						}
						catch (LockLostException ex) {
							// The leader's context closed while it ran: the call says so.
						}
						catch (RuntimeException ex) {
							// Beans of the closed context refuse calls.
						}
					}
				});
				caller.start();
				callers.add(caller);
			}
		}
		ConfigurableApplicationContext next;
		long handOver;
		try {
			await().atMost(WAIT).until(() -> LoadJob.runs.get() > 1000);
			long start = System.nanoTime();
			leader.close();
			List<ConfigurableApplicationContext> rest = new ArrayList<>(nodes);
			rest.remove(leader);
			next = leaderOf(rest, "load");
			handOver = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
			await().atMost(WAIT).until(() -> LoadJob.byNode.size() >= 2);
		}
		finally {
			stop.set(true);
			for (Thread caller : callers) {
				caller.join(30_000);
			}
		}
		assertThat(handOver).isLessThan(10_000);
		System.out.println("[measure] @LeaderOnly under load: " + LoadJob.runs.get() + " bodies run, " + LoadJob.byNode
				+ " per instance, most instances at once " + LoadJob.most.get()
				+ "; closing the leader's context handed over in " + handOver + " ms (includes the context's close)");
		assertThat(LoadJob.most.get()).isEqualTo(1);
		assertThat(LoadJob.byNode).hasSize(2);
		assertThat(next.getBean(Leadership.class).epoch("load")).isPresent();
	}

	@Test
	void notLeaderSkipsWithTheEmptyValueOrThrowsAsAsked() throws Exception {
		ConfigurableApplicationContext first = start("policies", PolicyJob.class);
		first.getBean(Leadership.class).awaitLeadership("policies").get(30, TimeUnit.SECONDS);
		ConfigurableApplicationContext second = start("policies", PolicyJob.class);
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> second.getBean(Leadership.class).inspect("policies").participants().size() == 2);
		PolicyJob leading = first.getBean(PolicyJob.class);
		PolicyJob following = second.getBean(PolicyJob.class);
		assertThat(leading.count()).isEqualTo(1);
		assertThat(following.count()).isZero();
		assertThat(leading.name()).isEqualTo("ran");
		assertThat(following.name()).isNull();
		assertThat(leading.stage().toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("ran");
		assertThat(following.stage().toCompletableFuture().get(10, TimeUnit.SECONDS)).isNull();
		assertThat(leading.mono().block(Duration.ofSeconds(10))).isEqualTo("ran");
		assertThat(following.mono().blockOptional(Duration.ofSeconds(10))).isEmpty();
		assertThatExceptionOfType(NotLeaderException.class).isThrownBy(following::strict)
			.withMessageContaining("@LeaderOnly(\"policies\")")
			.withMessageContaining("does not lead group 'policies'");
		assertThat(leading.strict()).isEqualTo(first.getBean(Leadership.class).epoch("policies").getAsLong());
		assertThat(following.bodies()).isZero();
	}

	@Test
	void leadershipLostWhileTheBodyRunsEndsTheCallWithLockLostExceptionAndEventsArePublished() throws Exception {
		ConfigurableApplicationContext context = start("lost", BlockingJob.class);
		Leadership leadership = context.getBean(Leadership.class);
		long epoch = leadership.awaitLeadership("lost").get(30, TimeUnit.SECONDS);
		BlockingJob job = context.getBean(BlockingJob.class);
		CompletableFuture<Long> call = CompletableFuture.supplyAsync(job::work);
		assertThat(BlockingJob.entered.await(30, TimeUnit.SECONDS)).isTrue();
		leadership.relinquish("lost");
		BlockingJob.proceed.countDown();
		assertThat(call).failsWithin(WAIT)
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(LockLostException.class)
			.withMessageContaining("'lost' is LOST");
		// The body saw the epoch as its fencing token.
		assertThat(BlockingJob.token).isEqualTo(epoch);
		Events events = context.getBean(Events.class);
		await().atMost(WAIT).until(() -> events.seen.size() >= 2);
		assertThat(events.seen.subList(0, 2)).containsExactly(new LeadershipGrantedEvent("lost", epoch, MEMBER),
				new LeadershipRevokedEvent("lost", epoch, MEMBER));
	}

	@Test
	void classLevelAnnotationAndConfiguredGroupsAreJoinedAtStartup() throws Exception {
		SpringApplication application = new SpringApplication(ClassLevelJob.class, Infrastructure.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		ConfigurableApplicationContext context = application.run(
				"--distlock.zookeeper.connect-string=" + zookeeper.connectString(),
				"--distlock.zookeeper.namespace=classes", "--distlock.leadership.groups=api-only,other");
		this.contexts.add(context);
		Leadership leadership = context.getBean(Leadership.class);
		assertThat(leadership.groups()).containsExactly("api-only", "class/level", "other");
		await().atMost(WAIT).until(() -> leadership.isLeader("class/level"));
		assertThat(context.getBean(ClassLevelJob.class).one()).isEqualTo(1);
		assertThat(context.getBean(ClassLevelJob.class).two()).isEqualTo(2);
	}

	@Test
	void givesLeadershipUpWhileReadinessRefusesTrafficWhenAsked() throws Exception {
		SpringApplication application = new SpringApplication(Infrastructure.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		ConfigurableApplicationContext context = application.run(
				"--distlock.zookeeper.connect-string=" + zookeeper.connectString(),
				"--distlock.zookeeper.namespace=readiness", "--distlock.leadership.groups=ready",
				"--distlock.leadership.give-up-when-refusing-traffic=true");
		this.contexts.add(context);
		Leadership leadership = context.getBean(Leadership.class);
		long first = leadership.awaitLeadership("ready").get(30, TimeUnit.SECONDS);
		AvailabilityChangeEvent.publish(context, ReadinessState.REFUSING_TRAFFIC);
		assertThat(leadership.isLeader("ready")).isFalse();
		assertThat(leadership.groups()).isEmpty();
		await().atMost(WAIT).until(() -> leadership.inspect("ready").participants().isEmpty());
		AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
		assertThat(leadership.groups()).containsExactly("ready");
		long second = leadership.awaitLeadership("ready").get(30, TimeUnit.SECONDS);
		assertThat(second).isGreaterThan(first);
	}

	@Test
	void combinesWithALockAnnotationCheckingLeadershipFirst() throws Exception {
		ConfigurableApplicationContext first = start("combined", CombinedJob.class);
		long epoch = first.getBean(Leadership.class).awaitLeadership("combined").get(30, TimeUnit.SECONDS);
		ConfigurableApplicationContext second = start("combined", CombinedJob.class);
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> second.getBean(Leadership.class).inspect("combined").participants().size() == 2);
		List<String> held = first.getBean(CombinedJob.class).work();
		assertThat(held).containsExactlyInAnyOrder("leader combined " + epoch, "mutex combined/lock");
		assertThat(second.getBean(CombinedJob.class).work()).isNull();
	}

	@Test
	void groupThatIsAnExpressionFailsAtStartupNamingTheMethod() {
		SpringApplication application = new SpringApplication(ExpressionGroupJob.class, Infrastructure.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException()
			.isThrownBy(() -> application.run("--distlock.zookeeper.connect-string=" + zookeeper.connectString()))
			.havingRootCause()
			.isInstanceOf(LockConfigurationException.class)
			.withMessageContaining("ExpressionGroupJob.work()")
			.withMessageContaining("must be a constant");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DistlockAutoConfiguration.class, DistlockLeadershipAutoConfiguration.class })
	static class Infrastructure {

		@Bean
		Events events() {
			return new Events();
		}

	}

	static class Events {

		final List<Object> seen = new CopyOnWriteArrayList<>();

		@EventListener
		void granted(LeadershipGrantedEvent event) {
			this.seen.add(event);
		}

		@EventListener
		void revoked(LeadershipRevokedEvent event) {
			this.seen.add(event);
		}

	}

	static class LoadJob {

		// Bodies running now, per instance: leader-only means one instance at a time,
		// with as many threads of it as call.
		static final Map<Integer, AtomicInteger> insideByNode = new ConcurrentHashMap<>();

		static final AtomicInteger most = new AtomicInteger();

		static final AtomicInteger runs = new AtomicInteger();

		static final Map<Integer, AtomicInteger> byNode = new ConcurrentHashMap<>();

		static void reset() {
			insideByNode.clear();
			most.set(0);
			runs.set(0);
			byNode.clear();
		}

		@LeaderOnly("load")
		public void run() {
			int node = System.identityHashCode(this);
			AtomicInteger inside = insideByNode.computeIfAbsent(node, (k) -> new AtomicInteger());
			inside.incrementAndGet();
			int instances = 0;
			for (AtomicInteger count : insideByNode.values()) {
				instances += (count.get() > 0) ? 1 : 0;
			}
			most.accumulateAndGet(instances, Math::max);
			runs.incrementAndGet();
			byNode.computeIfAbsent(node, (k) -> new AtomicInteger()).incrementAndGet();
			Thread.onSpinWait();
			inside.decrementAndGet();
		}

	}

	static class PolicyJob {

		final AtomicInteger bodies = new AtomicInteger();

		int bodies() {
			return this.bodies.get();
		}

		@LeaderOnly("policies")
		public int count() {
			this.bodies.incrementAndGet();
			return 1;
		}

		@LeaderOnly("policies")
		public String name() {
			this.bodies.incrementAndGet();
			return "ran";
		}

		@LeaderOnly("policies")
		public CompletionStage<String> stage() {
			this.bodies.incrementAndGet();
			return CompletableFuture.completedFuture("ran");
		}

		@LeaderOnly("policies")
		public Mono<String> mono() {
			return Mono.fromSupplier(() -> {
				this.bodies.incrementAndGet();
				return "ran";
			});
		}

		@LeaderOnly(group = "policies", onNotLeader = OnNotLeader.THROW)
		public long strict() {
			this.bodies.incrementAndGet();
			return LockContext.current().fencingToken();
		}

	}

	static class BlockingJob {

		static final CountDownLatch entered = new CountDownLatch(1);

		static final CountDownLatch proceed = new CountDownLatch(1);

		static volatile long token;

		@LeaderOnly(group = "lost", onNotLeader = OnNotLeader.THROW)
		public long work() {
			token = LockContext.current().fencingToken();
			entered.countDown();
			try {
				proceed.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return token;
		}

	}

	static class CombinedJob {

		@LeaderOnly("combined")
		@io.github.distlock.annotation.DistributedLock("combined/lock")
		public List<String> work() {
			return LockContext.current()
				.locks()
				.stream()
				.map((handle) -> (handle.kind() == io.github.distlock.core.LockKind.LEADER)
						? "leader " + handle.path() + " " + handle.fencingToken() : "mutex " + handle.path())
				.toList();
		}

	}

	@LeaderOnly("class/level")
	static class ClassLevelJob {

		public int one() {
			return 1;
		}

		public int two() {
			return 2;
		}

	}

	static class ExpressionGroupJob {

		@LeaderOnly("jobs/#{#root.method.name}")
		public void work() {
		}

	}

}
