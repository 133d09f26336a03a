package io.github.distlock.transaction;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.annotation.Transactional;

import io.github.distlock.annotation.LeaderOnly;
import io.github.distlock.annotation.OnNotLeader;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.DistlockFenceSchemaAutoConfiguration;
import io.github.distlock.autoconfigure.leadership.DistlockLeadershipAutoConfiguration;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.StaleFencingTokenException;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @LeaderOnly(fenced = true)} on JDBC: a leader's transactions advance the group's
 * fence row ({@code leader/<group>}) with the tenure's epoch, so an old leader that was
 * paused past its session cannot commit after the new leader committed. Two instances
 * (Spring Boot applications) share an H2 database, whose fence table Boot's initializer
 * creates ({@code distlock.fencing.initialize-schema=embedded}, the default).
 */
class FencedLeaderOnlyTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final String url = "jdbc:h2:mem:fenced-leader-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void close() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
		new JdbcTemplate(new DriverManagerDataSource(this.url, "sa", "")).execute("shutdown");
	}

	private ConfigurableApplicationContext start() {
		SpringApplication application = new SpringApplication(FencedLeaderConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		ConfigurableApplicationContext context = application.run(
				"--distlock.zookeeper.connect-string=" + zookeeper.connectString(),
				"--distlock.zookeeper.namespace=fenced-leader", "--spring.datasource.url=" + this.url,
				"--spring.application.name=fenced-leader-test", "--spring.main.banner-mode=off");
		this.contexts.add(context);
		return context;
	}

	@Test
	void oldLeaderPausedPastItsSessionCannotCommitAfterTheNewLeaderCommitted() throws Exception {
		ConfigurableApplicationContext first = start();
		await().atMost(WAIT).until(() -> first.getBean(Leadership.class).isLeader("billing"));
		ConfigurableApplicationContext second = start();
		JdbcTemplate jdbc = first.getBean(JdbcTemplate.class);
		jdbc.execute("create table invoice_runs (epoch bigint primary key)");

		CountDownLatch paused = new CountDownLatch(1);
		CountDownLatch resume = new CountDownLatch(1);
		long[] oldEpoch = new long[1];
		CompletableFuture<Long> oldLeader = CompletableFuture
			.supplyAsync(() -> first.getBean(Billing.class).closeInvoices(() -> {
				oldEpoch[0] = LockContext.current().fencingToken();
				paused.countDown();
				awaitQuietly(resume);
			}));
		assertThat(paused.await(10, TimeUnit.SECONDS)).isTrue();

		// The old leader stands still past its session: the session ends on the server,
		// and the other instance leads with a larger epoch and commits its run.
		Faults.killSession(first.getBean(CuratorFramework.class), zookeeper.connectString());
		await().atMost(WAIT).until(() -> second.getBean(Leadership.class).isLeader("billing"));
		long newEpoch = second.getBean(Billing.class).closeInvoices(() -> {
		});
		assertThat(newEpoch).isGreaterThan(oldEpoch[0]);

		resume.countDown();
		assertThat(oldLeader).failsWithin(WAIT)
			.withThrowableOfType(ExecutionException.class)
			.havingCause()
			.isInstanceOfSatisfying(StaleFencingTokenException.class, (stale) -> {
				assertThat(stale.getPath()).isEqualTo(LockPath.of("billing"));
				assertThat(stale.getToken()).isEqualTo(oldEpoch[0]);
				assertThat(stale.getNewerToken()).isEqualTo(newEpoch);
				assertThat(stale).hasMessageContaining("leader/billing");
			});
		assertThat(jdbc.queryForList("select epoch from invoice_runs", Long.class)).containsExactly(newEpoch);
		assertThat(
				jdbc.queryForObject("select token from distlock_fence where lock_path = 'leader/billing'", Long.class))
			.isEqualTo(newEpoch);
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			if (!latch.await(60, TimeUnit.SECONDS)) {
				throw new IllegalStateException("not resumed");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	static class Billing {

		private final JdbcTemplate jdbc;

		Billing(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@LeaderOnly(group = "billing", fenced = true, onNotLeader = OnNotLeader.THROW)
		@Transactional
		public long closeInvoices(Runnable beforeWrite) {
			beforeWrite.run();
			long epoch = LockContext.current().fencingToken();
			this.jdbc.update("insert into invoice_runs (epoch) values (?)", epoch);
			return epoch;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DistlockAutoConfiguration.class, DistlockLeadershipAutoConfiguration.class,
			DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
			JdbcTemplateAutoConfiguration.class, TransactionAutoConfiguration.class,
			DistlockFenceSchemaAutoConfiguration.class })
	static class FencedLeaderConfiguration {

		@Bean
		Billing billing(JdbcTemplate jdbc) {
			return new Billing(jdbc);
		}

	}

}
