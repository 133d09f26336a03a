package io.github.distlock.console;

import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.actuate.audit.AuditEvent;
import org.springframework.boot.actuate.audit.AuditEventRepository;
import org.springframework.boot.actuate.audit.InMemoryAuditEventRepository;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import io.github.distlock.actuate.AdminActionMetrics;
import io.github.distlock.actuate.DistlockAdminOperations;
import io.github.distlock.annotation.ScheduledOnce;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockState;
import io.github.distlock.core.Locks;
import io.github.distlock.core.ScheduledJobs;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Operators' actions over HTTP, through the actuator endpoint and the console, in a
 * servlet application with Spring Security as docs/console.md configures it: writes need
 * the role {@code DISTLOCK_ADMIN}, the console's need the CSRF token its state API gives,
 * every action is audited with its principal and counted; with the admin switch off
 * neither has an action, the endpoint's pause of a job ({@code POST
 * /actuator/distlock/{job}}) included.
 */
class ConsoleSecurityTests {

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private static final HttpClient anonymous = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private static @Nullable ConfigurableApplicationContext context;

	private static int port;

	@BeforeAll
	static void start() {
		context = start("distlock.admin.enabled=true");
		port = Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
	}

	@AfterAll
	static void stop() {
		if (context != null) {
			context.close();
		}
	}

	private static ConfigurableApplicationContext start(String... properties) {
		List<String> arguments = new ArrayList<>(
				List.of("--server.port=0", "--distlock.zookeeper.connect-string=" + zookeeper.connectString(),
						"--management.endpoints.web.exposure.include=distlock", "--spring.main.banner-mode=off"));
		for (String property : properties) {
			arguments.add("--" + property);
		}
		return new SpringApplicationBuilder(SecuredApplication.class).run(arguments.toArray(String[]::new));
	}

	@Test
	void unauthenticatedWriteIsRefusedAndOneWithTheRoleGoesThroughAudited() throws Exception {
		String pause = "{\"job\":\"nightly\"}";
		assertThat(post(anonymous, port, "/actuator/distlock/jobs/pause", pause, null).statusCode()).isEqualTo(401);
		assertThat(post(anonymous, port, "/actuator/distlock/jobs/pause", pause, "viewer").statusCode()).isEqualTo(403);
		ScheduledJobs jobs = context().getBean(ScheduledJobs.class);
		assertThat(jobs.isPaused("nightly")).isFalse();

		HttpResponse<String> paused = post(anonymous, port, "/actuator/distlock/jobs/pause", pause, "operator");
		assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
		assertThat(jobs.isPaused("nightly")).isTrue();
		HttpResponse<String> resumed = post(anonymous, port, "/actuator/distlock/jobs/resume", pause, "operator");
		assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
		assertThat(jobs.isPaused("nightly")).isFalse();
		// The endpoint's pause by the job's name, as before the admin switch existed.
		String byName = "{\"paused\":true}";
		assertThat(post(anonymous, port, "/actuator/distlock/nightly", byName, "viewer").statusCode()).isEqualTo(403);
		HttpResponse<String> named = post(anonymous, port, "/actuator/distlock/nightly", byName, "operator");
		assertThat(named.statusCode()).as(named.body()).isEqualTo(200);
		assertThat(JsonPath.parse(named.body()).read("$.paused", Boolean.class)).isTrue();
		assertThat(jobs.isPaused("nightly")).isTrue();
		assertThat(post(anonymous, port, "/actuator/distlock/no-such-job", byName, "operator").statusCode())
			.isEqualTo(404);
		jobs.resume("nightly");

		AuditEvent audited = audited("operator", "pause");
		assertThat(audited.getData()).containsEntry("job", "nightly").containsEntry("outcome", "success");
		assertThat(context().getBean(MeterRegistry.class)
			.get(AdminActionMetrics.ACTIONS)
			.tags("action", "pause", "outcome", "success")
			.counter()
			.count()).isGreaterThanOrEqualTo(1);
	}

	@Test
	void malformedInputIsABadRequestNamingTheValueAndAnUnknownJobIsNotFound() throws Exception {
		HttpResponse<String> protocol = post(anonymous, port, "/actuator/distlock/locks/force-release",
				"{\"path\":\"orders/42\",\"protocol\":\"bogus\",\"token\":7}", "operator");
		assertThat(protocol.statusCode()).isEqualTo(400);
		assertThat(protocol.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(JsonPath.parse(protocol.body()).read("$.detail", String.class)).contains("'bogus'");

		HttpResponse<String> path = post(anonymous, port, "/actuator/distlock/locks/request-release",
				"{\"path\":\"orders//42\",\"protocol\":\"mutex\"}", "operator");
		assertThat(path.statusCode()).isEqualTo(400);
		assertThat(JsonPath.parse(path.body()).read("$.detail", String.class)).contains("'orders//42'");

		HttpResponse<String> job = post(anonymous, port, "/actuator/distlock/jobs/run-now", "{\"job\":\"nope\"}",
				"operator");
		assertThat(job.statusCode()).isEqualTo(404);
		assertThat(JsonPath.parse(job.body()).read("$.detail", String.class)).contains("'nope'");

		// The extension with the actions keeps the per-path view of the one it replaces.
		HttpResponse<String> nothingThere = get(anonymous, port, "/actuator/distlock/orders/42", "viewer");
		assertThat(nothingThere.statusCode()).isEqualTo(404);
		assertThat(JsonPath.parse(nothingThere.body()).read("$.path", String.class)).isEqualTo("orders/42");

		assertThat(audited("operator", "force-release").getData()).containsEntry("outcome", "invalid")
			.containsEntry("protocol", "bogus")
			.containsEntry("token", 7L);
	}

	/**
	 * Needs {@code LockAdmin.requestRelease} and {@code forceRelease} of the lock engine:
	 * without them every answer is 501 and this test fails.
	 */
	@Test
	void releaseOfAFreeLockIsNotFoundOfAChangedHolderAConflictAndOfTheHolderLosesItsLock() throws Exception {
		Locks locks = context().getBean(Locks.class);
		HttpResponse<String> free = post(anonymous, port, "/actuator/distlock/locks/request-release",
				"{\"path\":\"orders/free\",\"protocol\":\"mutex\"}", "operator");
		assertThat(free.statusCode()).as(free.body()).isEqualTo(404);
		try (LockHandle held = locks.mutex("orders/42").acquire(Duration.ofSeconds(10))) {
			String changed = "{\"path\":\"orders/42\",\"protocol\":\"mutex\",\"token\":" + (held.fencingToken() + 1)
					+ "}";
			HttpResponse<String> conflict = post(anonymous, port, "/actuator/distlock/locks/force-release", changed,
					"operator");
			assertThat(conflict.statusCode()).as(conflict.body()).isEqualTo(409);
			assertThat(held.state()).isEqualTo(LockState.HELD);

			String holder = "{\"path\":\"orders/42\",\"protocol\":\"mutex\",\"token\":" + held.fencingToken() + "}";
			HttpResponse<String> removed = post(anonymous, port, "/actuator/distlock/locks/force-release", holder,
					"operator");
			assertThat(removed.statusCode()).as(removed.body()).isEqualTo(200);
			await().atMost(Duration.ofSeconds(10)).until(() -> held.state() == LockState.LOST);
		}
		assertThat(audited("operator", "force-release").getData()).containsEntry("outcome", "success");
	}

	@Test
	void consoleActionNeedsTheCsrfTokenItsStateGives() throws Exception {
		HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
		String pause = "{\"job\":\"nightly\"}";
		assertThat(post(browser, port, "/distlock/api/jobs/pause", pause, "operator").statusCode()).isEqualTo(403);

		DocumentContext state = JsonPath.parse(get(browser, port, "/distlock/api/state", "operator").body());
		assertThat(state.read("$.admin", Boolean.class)).isTrue();
		assertThat(state.read("$.jobs[0].name", String.class)).isEqualTo("nightly");
		assertThat(state.read("$.jobs[0].nextSlot", String.class)).isNotNull();
		String header = state.read("$.csrf.headerName");
		String token = state.read("$.csrf.token");
		HttpResponse<String> paused = send(browser,
				HttpRequest.newBuilder(uri(port, "/distlock/api/jobs/pause"))
					.header("Content-Type", "application/json")
					.header(header, token)
					.header("Authorization", basic("operator"))
					.POST(HttpRequest.BodyPublishers.ofString(pause)));
		assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
		assertThat(context().getBean(ScheduledJobs.class).isPaused("nightly")).isTrue();
		assertThat(audited("operator", "pause").getData()).containsEntry("outcome", "success");
		context().getBean(ScheduledJobs.class).resume("nightly");
	}

	@Test
	void withoutTheAdminSwitchNeitherEndpointNorConsoleHasActions() throws Exception {
		try (ConfigurableApplicationContext off = start("distlock.admin.enabled=false",
				"distlock.zookeeper.namespace=admin-off")) {
			int offPort = Integer.parseInt(off.getEnvironment().getRequiredProperty("local.server.port"));
			HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
			DocumentContext state = JsonPath.parse(get(browser, offPort, "/distlock/api/state", "operator").body());
			assertThat(state.read("$.admin", Boolean.class)).isFalse();
			assertThat(post(anonymous, offPort, "/actuator/distlock/jobs/pause", "{\"job\":\"nightly\"}", "operator")
				.statusCode()).isIn(404, 405);
			HttpResponse<String> console = send(browser,
					HttpRequest.newBuilder(uri(offPort, "/distlock/api/jobs/pause"))
						.header("Content-Type", "application/json")
						.header(state.read("$.csrf.headerName", String.class), state.read("$.csrf.token"))
						.header("Authorization", basic("operator"))
						.POST(HttpRequest.BodyPublishers.ofString("{\"job\":\"nightly\"}")));
			assertThat(console.statusCode()).isIn(404, 405);

			HttpResponse<String> older = post(anonymous, offPort, "/actuator/distlock/nightly", "{\"paused\":true}",
					"operator");
			assertThat(older.statusCode()).as(older.body()).isIn(404, 405);
			assertThat(off.getBean(ScheduledJobs.class).isPaused("nightly")).isFalse();
			AuditEventRepository audit = off.getBean(AuditEventRepository.class);
			assertThat(audit.find("operator", null, DistlockAdminOperations.AUDIT_TYPE)).isEmpty();
		}
	}

	private static AuditEvent audited(String principal, String action) {
		List<AuditEvent> events = context().getBean(AuditEventRepository.class)
			.find(principal, null, DistlockAdminOperations.AUDIT_TYPE);
		return events.stream()
			.filter((event) -> action.equals(event.getData().get("action")))
			.reduce((first, second) -> second)
			.orElseThrow(() -> new AssertionError("No audit event of " + action + " by " + principal + ": " + events));
	}

	private static ConfigurableApplicationContext context() {
		assertThat(context).isNotNull();
		return context;
	}

	private static HttpResponse<String> post(HttpClient client, int port, String path, String body,
			@Nullable String user) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri(port, path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (user != null) {
			request.header("Authorization", basic(user));
		}
		return send(client, request);
	}

	private static HttpResponse<String> get(HttpClient client, int port, String path, String user) throws Exception {
		return send(client, HttpRequest.newBuilder(uri(port, path)).header("Authorization", basic(user)).GET());
	}

	private static HttpResponse<String> send(HttpClient client, HttpRequest.Builder request) throws Exception {
		return client.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
	}

	private static URI uri(int port, String path) {
		return URI.create("http://localhost:" + port + path);
	}

	private static String basic(String user) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8));
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableScheduling
	static class SecuredApplication {

		// As docs/console.md shows: the distlock writes need a role, the rest is open.
		@Bean
		SecurityFilterChain distlockSecurity(HttpSecurity http) throws Exception {
			http.authorizeHttpRequests(
					(requests) -> requests.requestMatchers(HttpMethod.POST, "/actuator/distlock/**", "/distlock/api/**")
						.hasRole("DISTLOCK_ADMIN")
						.anyRequest()
						.permitAll())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.ignoringRequestMatchers("/actuator/**"));
			return http.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(
					User.withUsername("operator").password("{noop}secret").roles("DISTLOCK_ADMIN").build(),
					User.withUsername("viewer").password("{noop}secret").roles("VIEWER").build());
		}

		@Bean
		InMemoryAuditEventRepository auditEventRepository() {
			return new InMemoryAuditEventRepository();
		}

		@Bean
		Nightly nightly() {
			return new Nightly();
		}

	}

	static class Nightly {

		@Scheduled(cron = "0 0 3 * * *", zone = "UTC")
		@ScheduledOnce("nightly")
		void run() {
		}

	}

}
