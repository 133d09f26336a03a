package io.github.distlock.interceptor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;

import io.github.distlock.annotation.LeaderOnly;
import io.github.distlock.annotation.OnNotLeader;
import io.github.distlock.autoconfigure.DistlockAutoConfiguration;
import io.github.distlock.autoconfigure.leadership.DistlockLeadershipAutoConfiguration;
import io.github.distlock.core.Leadership;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.NotLeaderException;
import io.github.distlock.core.ReactiveLockContext;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code @LeaderOnly} around a transaction and on a {@code Flux}: a tenure that ends
 * while the transaction is open rolls it back (as a lost lock does), and a {@code Flux}
 * is emitted only by the leader, with the tenure held until it completes.
 */
class LeaderOnlyTransactionAndFluxTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@AfterEach
	void close() {
		this.contexts.forEach(ConfigurableApplicationContext::close);
	}

	private ConfigurableApplicationContext start(String namespace) {
		SpringApplication application = new SpringApplication(Infrastructure.class, JobConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		ConfigurableApplicationContext context = application.run(
				"--distlock.zookeeper.connect-string=" + zookeeper.connectString(),
				"--distlock.zookeeper.namespace=" + namespace, "--spring.main.banner-mode=off");
		this.contexts.add(context);
		return context;
	}

	@Test
	void transactionOfALeaderWhoseTenureEndsWhileItRunsIsRolledBack() throws Exception {
		ConfigurableApplicationContext context = start("leader-tx");
		Leadership leadership = context.getBean(Leadership.class);
		long epoch = leadership.awaitLeadership("ledger").get(30, TimeUnit.SECONDS);
		LedgerJob job = context.getBean(LedgerJob.class);
		JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
		// Leading all along: the transaction commits, the epoch its fencing token.
		assertThat(job.record(1, () -> {
		})).isEqualTo(epoch);
		assertThat(jdbc.queryForObject("select token from ledger where id = 1", Long.class)).isEqualTo(epoch);
		// The tenure ends while the transaction is open: it rolls back, the call says so.
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch proceed = new CountDownLatch(1);
		CompletableFuture<Long> call = CompletableFuture.supplyAsync(() -> job.record(2, () -> {
			entered.countDown();
			await().atMost(WAIT).until(() -> proceed.getCount() == 0);
		}));
		assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();
		// The only member queues again and may lead again at once, with a new tenure: the
		// transaction's tenure has ended either way.
		leadership.relinquish("ledger");
		proceed.countDown();
		assertThat(call).failsWithin(WAIT)
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(LockLostException.class)
			.withMessageContaining("Transaction rolled back instead of committed")
			.withMessageContaining("'ledger'");
		assertThat(jdbc.queryForObject("select count(*) from ledger where id = 2", Integer.class))
			.as("row written under an ended tenure")
			.isZero();
	}

	@Test
	void fluxIsEmittedByTheLeaderOnlyAndTheTenureIsHeldUntilItCompletes() throws Exception {
		ConfigurableApplicationContext first = start("leader-flux");
		long epoch = first.getBean(Leadership.class).awaitLeadership("feed").get(30, TimeUnit.SECONDS);
		ConfigurableApplicationContext second = start("leader-flux");
		await().atMost(WAIT)
			.ignoreExceptions()
			.until(() -> second.getBean(Leadership.class).inspect("feed").participants().size() == 2);
		FeedJob leading = first.getBean(FeedJob.class);
		FeedJob following = second.getBean(FeedJob.class);
		// Each element is made while the tenure is held, and carries its epoch.
		assertThat(leading.items().collectList().block(WAIT)).containsExactly("1@" + epoch, "2@" + epoch, "3@" + epoch);
		assertThat(following.items().collectList().block(WAIT)).isEmpty();
		assertThat(following.subscriptions()).isZero();
		Throwable refused = following.strictItems().materialize().collectList().block(WAIT).get(0).getThrowable();
		assertThat(refused).isInstanceOf(NotLeaderException.class).hasMessageContaining("does not lead group 'feed'");
		assertThat(following.subscriptions()).isZero();
		assertThat(leading.subscriptions()).isEqualTo(1);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DistlockAutoConfiguration.class, DistlockLeadershipAutoConfiguration.class })
	static class Infrastructure {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class JobConfiguration {

		@Bean(destroyMethod = "shutdown")
		EmbeddedDatabase dataSource() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.generateUniqueName(true)
				.addScript("classpath:io/github/distlock/interceptor/ledger.sql")
				.build();
		}

		@Bean
		PlatformTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		JdbcTemplate jdbcTemplate(DataSource dataSource) {
			return new JdbcTemplate(dataSource);
		}

		@Bean
		LedgerJob ledgerJob(JdbcTemplate jdbc) {
			return new LedgerJob(jdbc);
		}

		@Bean
		FeedJob feedJob() {
			return new FeedJob();
		}

	}

	static class LedgerJob {

		private final JdbcTemplate jdbc;

		LedgerJob(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@LeaderOnly(group = "ledger", onNotLeader = OnNotLeader.THROW)
		@Transactional
		public long record(long id, Runnable whileLeading) {
			long token = LockContext.current().fencingToken();
			this.jdbc.update("insert into ledger (id, token) values (?, ?)", id, token);
			whileLeading.run();
			return token;
		}

	}

	static class FeedJob {

		private final AtomicInteger subscriptions = new AtomicInteger();

		public int subscriptions() {
			return this.subscriptions.get();
		}

		@LeaderOnly("feed")
		public Flux<String> items() {
			return feed();
		}

		@LeaderOnly(group = "feed", onNotLeader = OnNotLeader.THROW)
		public Flux<String> strictItems() {
			return feed();
		}

		private Flux<String> feed() {
			return Flux.range(1, 3)
				.doOnSubscribe((subscription) -> this.subscriptions.incrementAndGet())
				.flatMap((i) -> ReactiveLockContext.current().map((context) -> i + "@" + context.fencingToken()));
		}

	}

}
