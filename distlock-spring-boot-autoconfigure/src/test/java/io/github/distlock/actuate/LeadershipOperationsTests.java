package io.github.distlock.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.PayloadApplicationEvent;

import io.github.distlock.core.LeaderChangedEvent;
import io.github.distlock.core.Leadership;
import io.github.distlock.testsupport.DistlockContextRunners;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The groups of leader election in operations: the {@code distlock} endpoint lists them
 * with leader, participants and epochs; health shows membership; the leader gauge follows
 * the tenure.
 */
class LeadershipOperationsTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	@Test
	void endpointHealthAndGaugeShowTheGroups() throws Exception {
		try (ConfigurableApplicationContext leader = start("ops-leader");
				ConfigurableApplicationContext member = start("ops-member")) {
			Leadership leading = leader.getBean(Leadership.class);
			long epoch = leading.awaitLeadership("ops").get(20, TimeUnit.SECONDS);
			Leadership following = member.getBean(Leadership.class);
			await().atMost(Duration.ofSeconds(20))
				.ignoreExceptions()
				.until(() -> following.inspect("ops").participants().size() == 2);

			DistlockEndpoint.LocksDescriptor view = member.getBean(DistlockEndpoint.class).locks();
			assertThat(view.groups()).hasSize(1);
			DistlockEndpoint.GroupDescriptor group = view.groups().get(0);
			assertThat(group.group()).isEqualTo("ops");
			assertThat(group.node()).isEqualTo("/leader/ops");
			assertThat(group.leader()).isFalse();
			assertThat(group.epoch()).isNull();
			assertThat(group.participants()).extracting(DistlockEndpoint.NodeDescriptor::holds)
				.containsExactly(true, false);
			assertThat(group.participants().get(0).fencingToken()).isEqualTo(epoch);
			// The latch nodes hold the member ids, as a raw LeaderLatch's hold its id.
			assertThat(group.memberId()).isEqualTo("ops-member");
			assertThat(group.leaderId()).isEqualTo("ops-leader");
			assertThat(group.participants().get(0).identity()).isNull();
			DistlockEndpoint.GroupDescriptor leaderView = leader.getBean(DistlockEndpoint.class)
				.locks()
				.groups()
				.get(0);
			assertThat(leaderView.leader()).isTrue();
			assertThat(leaderView.epoch()).isEqualTo(epoch);

			assertThat(health(leader).getDetails()).containsEntry("leadership", Map.of("ops", "LEADER"));
			assertThat(health(member).getDetails()).containsEntry("leadership", Map.of("ops", "MEMBER"));

			MeterRegistry leaderMeters = leader.getBean(MeterRegistry.class);
			MeterRegistry memberMeters = member.getBean(MeterRegistry.class);
			assertThat(leaderMeters.get("distlock.leader").tag("group", "ops").gauge().value()).isEqualTo(1);
			assertThat(memberMeters.get("distlock.leader").tag("group", "ops").gauge().value()).isZero();
			leading.relinquish("ops");
			following.awaitLeadership("ops").get(20, TimeUnit.SECONDS);
			await().atMost(Duration.ofSeconds(20))
				.until(() -> memberMeters.get("distlock.leader").tag("group", "ops").gauge().value() == 1);
			assertThat(List.of(leaderMeters.get("distlock.leadership.transitions")
				.tags("group", "ops", "transition", "revoked")
				.counter()
				.count())).containsExactly(1.0);
		}
	}

	@Test
	void anObservingInstanceFollowsTheLeaderAndTheEndpointShowsIt() throws Exception {
		try (ConfigurableApplicationContext observer = new SpringApplicationBuilder(
				MetricsDocsTests.MetricsApplication.class)
			.web(WebApplicationType.NONE)
			.run(DistlockContextRunners.arguments(zookeeper, "distlock.leadership.observe=watched",
					"distlock.leadership.member-id=observer", "management.endpoints.access.default=read-only",
					"management.endpoints.web.exposure.include=distlock"))) {
			List<LeaderChangedEvent> changes = new CopyOnWriteArrayList<>();
			observer.addApplicationListener((ApplicationListener<ApplicationEvent>) (event) -> {
				if (event instanceof PayloadApplicationEvent<?> payload
						&& payload.getPayload() instanceof LeaderChangedEvent change) {
					changes.add(change);
				}
			});
			Leadership observing = observer.getBean(Leadership.class);
			assertThat(observing.observedGroups()).containsExactly("watched");
			assertThat(observing.groups()).isEmpty();
			try (ConfigurableApplicationContext leader = new SpringApplicationBuilder(
					MetricsDocsTests.MetricsApplication.class)
				.web(WebApplicationType.NONE)
				.run(DistlockContextRunners.arguments(zookeeper, "distlock.leadership.groups=watched",
						"distlock.leadership.member-id=watched-leader"))) {
				long epoch = leader.getBean(Leadership.class).awaitLeadership("watched").get(20, TimeUnit.SECONDS);
				await().atMost(Duration.ofSeconds(20))
					.until(() -> changes.stream()
						.anyMatch((change) -> change.leader() != null && change.leader().epoch() == epoch));
				DistlockEndpoint.ObservedDescriptor seen = observer.getBean(DistlockEndpoint.class)
					.locks()
					.observed()
					.get(0);
				assertThat(seen.group()).isEqualTo("watched");
				assertThat(seen.leaderId()).isEqualTo("watched-leader");
				assertThat(seen.epoch()).isEqualTo(epoch);
			}
			// The leader closed, leaving the group: nobody leads.
			await().atMost(Duration.ofSeconds(20)).until(() -> observing.observed("watched").isEmpty());
			assertThat(changes).last().extracting(LeaderChangedEvent::leader).isNull();
		}
	}

	@Test
	void aMemberRefusedByAnAclShowsTheRefusalOnHealth() throws Exception {
		try (CuratorFramework owner = CuratorFrameworkFactory.builder()
			.connectString(zookeeper.connectString())
			.retryPolicy(new RetryOneTime(100))
			.authorization("digest", "owner:secret".getBytes())
			.build()) {
			owner.start();
			String digest = DigestAuthenticationProvider.generateDigest("owner:secret");
			owner.create()
				.creatingParentsIfNeeded()
				.withACL(List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", digest))))
				.forPath("/distlock/leader/refused");
			try (ConfigurableApplicationContext member = new SpringApplicationBuilder(
					MetricsDocsTests.MetricsApplication.class)
				.web(WebApplicationType.NONE)
				.run(DistlockContextRunners.arguments(zookeeper, "distlock.leadership.groups=refused",
						"distlock.leadership.member-id=refused"))) {
				await().atMost(Duration.ofSeconds(20))
					.until(() -> health(member).getDetails().get("leadershipErrors") != null);
				Health health = health(member);
				assertThat(health.getStatus()).isEqualTo(Status.UP);
				assertThat(health.getDetails()).containsEntry("leadership", Map.of("refused", "MEMBER"));
				assertThat(health.getDetails().get("leadershipErrors"))
					.asInstanceOf(InstanceOfAssertFactories.map(String.class, String.class))
					.containsOnlyKeys("refused");
				assertThat(health.getDetails().get("leadershipErrors").toString()).contains("NoAuth")
					.contains("/distlock/leader/refused");

				owner.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath("/distlock/leader/refused");

				member.getBean(Leadership.class).awaitLeadership("refused").get(20, TimeUnit.SECONDS);
				assertThat(health(member).getDetails()).doesNotContainKey("leadershipErrors");
			}
		}
	}

	private static Health health(ConfigurableApplicationContext context) {
		return context.getBean(DistlockHealthIndicator.class).health(true);
	}

	private static ConfigurableApplicationContext start(String memberId) {
		return new SpringApplicationBuilder(MetricsDocsTests.MetricsApplication.class).web(WebApplicationType.NONE)
			.run(DistlockContextRunners.arguments(zookeeper, "distlock.leadership.groups=ops",
					"distlock.leadership.member-id=" + memberId, "management.endpoints.access.default=read-only",
					"management.endpoints.web.exposure.include=distlock"));
	}

}
