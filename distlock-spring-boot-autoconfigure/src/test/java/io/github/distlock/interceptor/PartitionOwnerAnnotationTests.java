package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import io.github.distlock.annotation.OnNotOwner;
import io.github.distlock.annotation.PartitionOwner;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.leadership.DistlockLeadershipAutoConfiguration;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.NotPartitionOwnerException;
import io.github.distlock.core.OwnedPartition;
import io.github.distlock.core.PartitionHash;
import io.github.distlock.core.Partitions;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code @PartitionOwner} in applications: two instances (contexts, members {@code a} and
 * {@code b}) against one ZooKeeper, each joining the partitioned group of its annotated
 * methods once started.
 */
class PartitionOwnerAnnotationTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final int COUNT = 16;

	private static final List<String> TENANTS = IntStream.range(0, 24).mapToObj((i) -> "tenant-" + i).toList();

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void close() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	private ConfigurableApplicationContext start(String namespace, String member) {
		SpringApplication application = new SpringApplication(TenantApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		ConfigurableApplicationContext context = application.run(
				"--distlock.zookeeper.connect-string=" + zookeeper.connectString(),
				"--distlock.zookeeper.namespace=" + namespace, "--distlock.leadership.member-id=" + member,
				"--spring.application.name=partition-owner-test", "--spring.main.banner-mode=off");
		this.contexts.add(context);
		return context;
	}

	private static Partitions tenants(ConfigurableApplicationContext context) {
		// The group is joined at startup: this returns that membership, joins nothing.
		return context.getBean(Leadership.class).partitions("tenants", COUNT);
	}

	private static Set<Integer> owned(ConfigurableApplicationContext context) {
		return tenants(context).owned().stream().map(OwnedPartition::index).collect(Collectors.toSet());
	}

	/** The partitions rendezvous hashing gives a member among the given ones. */
	private static Set<Integer> desired(String member, List<String> members) {
		return IntStream.range(0, COUNT)
			.filter((i) -> PartitionHash.ownerOf(members, i).equals(member))
			.boxed()
			.collect(Collectors.toCollection(TreeSet::new));
	}

	private static List<String> tenantsOf(Set<Integer> partitions) {
		return TENANTS.stream().filter((t) -> partitions.contains(PartitionHash.partitionOf(t, COUNT))).toList();
	}

	private void awaitSettled(ConfigurableApplicationContext a, ConfigurableApplicationContext b) {
		List<String> members = List.of("a", "b");
		await().atMost(WAIT)
			.until(() -> owned(a).equals(desired("a", members)) && owned(b).equals(desired("b", members)));
	}

	@Test
	void eachKeyRunsOnlyOnItsOwnerAndAllOnTheOtherOnceTheOwnerCloses() {
		ConfigurableApplicationContext a = start("owners", "a");
		ConfigurableApplicationContext b = start("owners", "b");
		awaitSettled(a, b);
		List<String> ofA = tenantsOf(desired("a", List.of("a", "b")));
		List<String> ofB = tenantsOf(desired("b", List.of("a", "b")));
		// Both members own keys among those called, or the test proves less.
		assertThat(ofA).isNotEmpty();
		assertThat(ofB).isNotEmpty();
		TenantJob jobA = a.getBean(TenantJob.class);
		TenantJob jobB = b.getBean(TenantJob.class);
		for (int round = 0; round < 3; round++) {
			for (String tenant : TENANTS) {
				String ranOnA = jobA.poll(tenant);
				String ranOnB = jobB.poll(tenant);
				assertThat((ofA.contains(tenant)) ? ranOnA : ranOnB).isEqualTo("polled " + tenant);
				assertThat((ofA.contains(tenant)) ? ranOnB : ranOnA).isNull();
			}
		}
		assertThat(jobA.runs()).isEqualTo(ofA.stream().collect(Collectors.toMap((t) -> t, (t) -> 3)));
		assertThat(jobB.runs()).isEqualTo(ofB.stream().collect(Collectors.toMap((t) -> t, (t) -> 3)));

		a.close();
		await().atMost(WAIT).until(() -> owned(b).size() == COUNT);
		for (String tenant : TENANTS) {
			assertThat(jobB.poll(tenant)).isEqualTo("polled " + tenant);
		}
		assertThat(jobB.runs())
			.isEqualTo(TENANTS.stream().collect(Collectors.toMap((t) -> t, (t) -> ofB.contains(t) ? 4 : 1)));
		assertThat(jobA.runs().values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(3 * ofA.size());
	}

	@Test
	void notOwnerThrowsNamingGroupPartitionAndKeyWhenAsked() {
		ConfigurableApplicationContext a = start("strict", "a");
		ConfigurableApplicationContext b = start("strict", "b");
		awaitSettled(a, b);
		String tenant = tenantsOf(desired("a", List.of("a", "b"))).get(0);
		int partition = PartitionHash.partitionOf(tenant, COUNT);
		assertThat(a.getBean(TenantJob.class).strict(tenant)).isEqualTo(partition);
		assertThatExceptionOfType(NotPartitionOwnerException.class)
			.isThrownBy(() -> b.getBean(TenantJob.class).strict(tenant))
			.withMessageContaining("@PartitionOwner(group = \"tenants\", partitions = 16, key = \"#tenantId\")")
			.withMessageContaining("TenantJob.strict(String)")
			.withMessageContaining("partition " + partition + " of group 'tenants'")
			.withMessageContaining("key '" + tenant + "'")
			.satisfies((ex) -> {
				assertThat(ex.getGroup()).isEqualTo("tenants");
				assertThat(ex.getPartition()).isEqualTo(partition);
				assertThat(ex.getKey()).isEqualTo(tenant);
			});
		assertThat(a.getBean(TenantJob.class).runs()).containsExactly(Map.entry(tenant, 1));
		assertThat(b.getBean(TenantJob.class).runs()).isEmpty();
	}

	@Test
	void theHandOverOfAPartitionWaitsForTheCallRunningOnIt() throws Exception {
		ConfigurableApplicationContext a = start("handover", "a");
		ConfigurableApplicationContext b = start("handover", "b");
		awaitSettled(a, b);
		String tenant = tenantsOf(desired("a", List.of("a", "b"))).get(0);
		int partition = PartitionHash.partitionOf(tenant, COUNT);
		TenantJob jobA = a.getBean(TenantJob.class);
		Partitions ofB = tenants(b);
		CountDownLatch proceed = new CountDownLatch(1);
		// What the call sees at its end: whether b owns the partition already.
		jobA.blockOn(proceed, () -> ofB.owned().stream().anyMatch((owned) -> owned.index() == partition));
		CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> jobA.poll(tenant));
		await().atMost(WAIT).until(() -> jobA.entered() == 1);
		Partitions ofA = tenants(a);
		CompletableFuture<Void> closing = CompletableFuture.runAsync(a::close);
		// Revocation begun: a no longer lists the partition, and waits for the call.
		await().atMost(WAIT).until(() -> ofA.owned().stream().noneMatch((owned) -> owned.index() == partition));
		proceed.countDown();
		assertThat(call).succeedsWithin(WAIT).isEqualTo("polled " + tenant);
		assertThat(jobA.ownedByOtherAtEnd()).isFalse();
		assertThat(closing).succeedsWithin(WAIT);
		await().atMost(WAIT).until(() -> owned(b).contains(partition));
	}

	@Test
	void readinessRefusingTrafficGivesThePartitionsUpAndAcceptingTakesThemBack() {
		ConfigurableApplicationContext a = start("readiness", "a");
		ConfigurableApplicationContext b = start("readiness", "b");
		awaitSettled(a, b);
		String tenant = tenantsOf(desired("a", List.of("a", "b"))).get(0);
		TenantJob jobA = a.getBean(TenantJob.class);
		TenantJob jobB = b.getBean(TenantJob.class);
		AvailabilityChangeEvent.publish(a, ReadinessState.REFUSING_TRAFFIC);
		await().atMost(WAIT).until(() -> owned(b).size() == COUNT);
		assertThat(jobA.poll(tenant)).isNull();
		assertThat(jobB.poll(tenant)).isEqualTo("polled " + tenant);
		AvailabilityChangeEvent.publish(a, ReadinessState.ACCEPTING_TRAFFIC);
		awaitSettled(a, b);
		assertThat(jobA.poll(tenant)).isEqualTo("polled " + tenant);
		assertThat(jobB.poll(tenant)).isNull();
		assertThat(jobA.runs()).containsExactly(Map.entry(tenant, 1));
		assertThat(jobB.runs()).containsExactly(Map.entry(tenant, 1));
	}

	@Test
	void partitionsBelowOneFailAtStartupNamingMethodAndValue() {
		assertStartupFails(NoPartitions.class, "NoPartitions.poll(String)", "partitions = 0",
				"needs at least 1 partition");
	}

	@Test
	void keyNamingNoParameterFailsAtStartupNamingMethodAndValue() {
		assertStartupFails(UnknownKey.class, "UnknownKey.poll(String)", "key '#tenant'",
				"#tenant, which is not a parameter of the method");
	}

	@Test
	void keyReadingNoParameterFailsAtStartup() {
		assertStartupFails(ConstantKey.class, "ConstantKey.poll(String)", "key ''all''", "reads no parameter");
	}

	@Test
	void keyThatDoesNotParseFailsAtStartupNamingMethodAndValue() {
		assertStartupFails(UnparsableKey.class, "UnparsableKey.poll(String)", "key '#tenantId +'",
				"is not a valid SpEL expression");
	}

	@Test
	void oneGroupWithTwoCountsFailsAtStartupNamingBothMethods() {
		assertStartupFails(TwoCounts.class, "group 'tenants' is given", "TwoCounts.eight(String)",
				"TwoCounts.sixteen(String)");
	}

	@Test
	void asynchronousMethodFailsAtStartupNamingMethodAndType() {
		assertStartupFails(AsyncPoll.class, "AsyncPoll.poll(String)",
				"returns java.util.concurrent.CompletableFuture<java.lang.String>",
				"holds the partition only while the method runs");
	}

	private static void assertStartupFails(Class<?> job, String... parts) {
		SpringApplication application = new SpringApplication(job, Infrastructure.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		var failure = assertThatException()
			.isThrownBy(() -> application.run("--distlock.zookeeper.connect-string=" + zookeeper.connectString(),
					"--spring.main.banner-mode=off"))
			.havingRootCause()
			.isInstanceOf(LockConfigurationException.class)
			.withMessageContaining("@PartitionOwner(group = \"tenants\"");
		for (String part : parts) {
			failure.withMessageContaining(part);
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DistlockAutoConfiguration.class, DistlockLeadershipAutoConfiguration.class })
	static class Infrastructure {

	}

	@Configuration(proxyBeanMethods = false)
	@Import({ Infrastructure.class, TenantJob.class })
	static class TenantApplication {

	}

	static class TenantJob {

		private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

		// State read and set through methods: the test holds the proxy, not the target.
		private final AtomicInteger entered = new AtomicInteger();

		private volatile CountDownLatch blockOn = new CountDownLatch(0);

		private volatile BooleanSupplier atEnd = () -> false;

		private final AtomicReference<Boolean> ownedByOtherAtEnd = new AtomicReference<>();

		@PartitionOwner(group = "tenants", partitions = 16, key = "#tenantId")
		public String poll(String tenantId) {
			this.entered.incrementAndGet();
			try {
				this.blockOn.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.runs.computeIfAbsent(tenantId, (t) -> new AtomicInteger()).incrementAndGet();
			this.ownedByOtherAtEnd.set(this.atEnd.getAsBoolean());
			return "polled " + tenantId;
		}

		@PartitionOwner(group = "tenants", partitions = 16, key = "#tenantId", onNotOwner = OnNotOwner.THROW)
		public int strict(String tenantId) {
			this.runs.computeIfAbsent(tenantId, (t) -> new AtomicInteger()).incrementAndGet();
			return PartitionHash.partitionOf(tenantId, COUNT);
		}

		void blockOn(CountDownLatch latch, BooleanSupplier atEnd) {
			this.blockOn = latch;
			this.atEnd = atEnd;
		}

		int entered() {
			return this.entered.get();
		}

		Boolean ownedByOtherAtEnd() {
			return this.ownedByOtherAtEnd.get();
		}

		Map<String, Integer> runs() {
			return this.runs.entrySet()
				.stream()
				.collect(Collectors.toMap(Map.Entry::getKey, (entry) -> entry.getValue().get()));
		}

	}

	static class NoPartitions {

		@PartitionOwner(group = "tenants", partitions = 0, key = "#tenantId")
		public void poll(String tenantId) {
		}

	}

	static class UnknownKey {

		@PartitionOwner(group = "tenants", partitions = 16, key = "#tenant")
		public void poll(String tenantId) {
		}

	}

	static class ConstantKey {

		@PartitionOwner(group = "tenants", partitions = 16, key = "'all'")
		public void poll(String tenantId) {
		}

	}

	static class UnparsableKey {

		@PartitionOwner(group = "tenants", partitions = 16, key = "#tenantId +")
		public void poll(String tenantId) {
		}

	}

	static class TwoCounts {

		@PartitionOwner(group = "tenants", partitions = 8, key = "#tenantId")
		public void eight(String tenantId) {
		}

		@PartitionOwner(group = "tenants", partitions = 16, key = "#tenantId")
		public void sixteen(String tenantId) {
		}

	}

	static class AsyncPoll {

		@PartitionOwner(group = "tenants", partitions = 16, key = "#tenantId")
		public CompletableFuture<String> poll(String tenantId) {
			return CompletableFuture.completedFuture(tenantId);
		}

	}

}
