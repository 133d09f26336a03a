package io.github.distlock.autoconfigure.leadership;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.core.Leadership;
import io.github.distlock.curator.CuratorLeadership;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * {@code distlock.leadership.preferred}, {@code preferred-groups} and
 * {@code preferred-delay}: the leader that is not preferred hands over to a preferred
 * instance once it has been a ready member for the delay, never to one whose readiness
 * refuses traffic (it is no member then).
 */
class LeadershipPreferredTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final Duration DELAY = Duration.ofSeconds(4);

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void close() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void aPreferredInstanceLeadsAfterTheDelayOnlyWhileItIsReady() throws Exception {
		ConfigurableApplicationContext first = start("preferred", "first");
		Leadership leading = first.getBean(Leadership.class);
		long epoch = leading.awaitLeadership("ready").get(30, TimeUnit.SECONDS);
		ConfigurableApplicationContext second = start("preferred", "second",
				"--distlock.leadership.preferred-groups=ready", "--distlock.leadership.preferred-delay=" + DELAY);
		Leadership preferred = second.getBean(Leadership.class);
		assertThat(((CuratorLeadership) preferred).preferred().isPreferred("ready")).isTrue();
		assertThat(((CuratorLeadership) preferred).preferred().getDelay()).isEqualTo(DELAY);

		AvailabilityChangeEvent.publish(second, ReadinessState.REFUSING_TRAFFIC);
		await().atMost(WAIT).until(() -> leading.inspect("ready").memberIds().equals(List.of("first")));
		// Not a member while it refuses traffic: no hand-off, however long.
		await().during(DELAY.multipliedBy(2)).atMost(DELAY.multipliedBy(3)).until(() -> leading.isLeader("ready"));
		assertThat(leading.epoch("ready")).hasValue(epoch);

		AvailabilityChangeEvent.publish(second, ReadinessState.ACCEPTING_TRAFFIC);
		assertThat(preferred.awaitLeadership("ready").get(30, TimeUnit.SECONDS)).isGreaterThan(epoch);
		await().atMost(WAIT).until(() -> leading.inspect("ready").memberIds().equals(List.of("second", "first")));
	}

	@Test
	void aNegativeDelayFailsAtStartupNamingTheProperty() {
		assertThatException()
			.isThrownBy(() -> start("preferred-bad", "bad", "--distlock.leadership.preferred-delay=-1s"))
			.havingRootCause()
			.withMessageContaining("distlock.leadership.preferred-delay")
			.withMessageContaining("-1");
	}

	private ConfigurableApplicationContext start(String namespace, String memberId, String... more) {
		SpringApplication application = new SpringApplication(Infrastructure.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		List<String> arguments = new ArrayList<>(
				List.of("--distlock.zookeeper.connect-string=" + zookeeper.connectString(),
						"--distlock.zookeeper.namespace=" + namespace, "--distlock.leadership.groups=ready",
						"--distlock.leadership.member-id=" + memberId));
		arguments.addAll(List.of(more));
		ConfigurableApplicationContext context = application.run(arguments.toArray(String[]::new));
		this.contexts.add(context);
		return context;
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DistlockAutoConfiguration.class, DistlockLeadershipAutoConfiguration.class })
	static class Infrastructure {

	}

}
