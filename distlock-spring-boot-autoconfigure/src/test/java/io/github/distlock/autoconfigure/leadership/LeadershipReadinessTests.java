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
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An instance whose readiness refuses traffic does not lead, by default: it leaves its
 * groups, the next instance leads at once, and it joins again, behind, once it accepts
 * traffic; {@code distlock.leadership.require-readiness=false} keeps it leading.
 */
class LeadershipReadinessTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void close() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	@Test
	void aLeaderThatRefusesTrafficStepsDownAndTheNextLeadsUntilItIsReadyAgain() throws Exception {
		ConfigurableApplicationContext first = start("readiness", "first");
		Leadership leading = first.getBean(Leadership.class);
		long epoch = leading.awaitLeadership("ready").get(30, TimeUnit.SECONDS);
		ConfigurableApplicationContext second = start("readiness", "second");
		Leadership next = second.getBean(Leadership.class);
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> next.inspect("ready").memberIds().equals(List.of("first", "second")));

		AvailabilityChangeEvent.publish(first, ReadinessState.REFUSING_TRAFFIC);

		assertThat(leading.isLeader("ready")).isFalse();
		assertThat(next.awaitLeadership("ready").get(30, TimeUnit.SECONDS)).isGreaterThan(epoch);
		assertThat(leading.groups()).isEmpty();
		await().atMost(WAIT).until(() -> next.inspect("ready").memberIds().equals(List.of("second")));

		AvailabilityChangeEvent.publish(first, ReadinessState.ACCEPTING_TRAFFIC);
		assertThat(leading.groups()).containsExactly("ready");
		await().atMost(WAIT).until(() -> next.inspect("ready").memberIds().equals(List.of("second", "first")));
		assertThat(next.isLeader("ready")).isTrue();
		assertThat(leading.isLeader("ready")).isFalse();
	}

	@Test
	void aLeaderKeepsLeadingWhileRefusingTrafficWhenReadinessIsNotRequired() throws Exception {
		ConfigurableApplicationContext only = start("readiness-off", "only",
				"--distlock.leadership.require-readiness=false");
		Leadership leadership = only.getBean(Leadership.class);
		long epoch = leadership.awaitLeadership("ready").get(30, TimeUnit.SECONDS);

		AvailabilityChangeEvent.publish(only, ReadinessState.REFUSING_TRAFFIC);

		assertThat(leadership.isLeader("ready")).isTrue();
		assertThat(leadership.epoch("ready")).hasValue(epoch);
		assertThat(leadership.groups()).containsExactly("ready");
		assertThat(leadership.inspect("ready").memberIds()).containsExactly("only");
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
