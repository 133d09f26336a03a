package io.github.distlock.faults;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import javax.sql.DataSource;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
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
import org.springframework.transaction.support.TransactionTemplate;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.LockState;
import io.github.distlock.curator.CuratorLocks;
import io.github.distlock.testsupport.Faults;
import io.github.distlock.testsupport.FencedStore;
import io.github.distlock.testsupport.LockTestContexts;
import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The holder's session expires (injected) while its locked method runs: the holder is
 * told through {@link LockContext}, through a {@link LockLostException} from the
 * annotated method, and through a rolled-back transaction on a real JDBC database;
 * another node takes the lock once ZooKeeper expired the session, and the stale holder's
 * fenced write is rejected.
 */
class SessionExpiryFaultTests {

	/** The holder's context, on a server with short sessions. */
	@RegisterExtension
	static final LockTestContexts contexts = new LockTestContexts(
			ZooKeeperExtension.forFaults(Faults.NODES.withApplicationName("ledger")));

	private static AnnotationConfigApplicationContext context;

	/** The other node. */
	private static CuratorLocks other;

	@BeforeAll
	static void start() throws Exception {
		other = contexts.zookeeper().newNode();
		context = contexts.start(HolderConfiguration.class);
		context.getBean(JdbcTemplate.class).execute("create table ledger (id bigint primary key, token bigint)");
	}

	private static CuratorFramework holderClient() {
		return context.getBean(CuratorFramework.class);
	}

	private static LedgerService ledger() {
		return context.getBean(LedgerService.class);
	}

	private static int rows(long id) {
		return context.getBean(JdbcTemplate.class)
			.queryForObject("select count(*) from ledger where id = ?", Integer.class, id);
	}

	/**
	 * Inside the locked method: expire the holder's session and wait until the holder
	 * knows; return the lock context seen before.
	 */
	private static LockContext expireWhileHeld() {
		LockContext held = LockContext.current();
		assertThat(held.isHeld()).isTrue();
		try {
			Faults.expireSession(holderClient());
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> !held.isHeld());
		return held;
	}

	@Test
	void transactionInsideALostLockIsRolledBackAndTheStaleFencedWriteIsRejected() {
		FencedStore<String, Long> store = new FencedStore<>();
		AtomicLong freeAfterMillis = new AtomicLong();
		AtomicReference<RuntimeException> staleWrite = new AtomicReference<>();
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> ledger().record(1, () -> {
			long token = LockContext.current().fencingToken();
			store.writeOrThrow("ledger/1", 1L, token);
			long expiredAt = System.nanoTime();
			LockContext held = expireWhileHeld();
			// The holder is told: the context says so.
			assertThat(held.locks()).singleElement()
				.satisfies((handle) -> assertThat(handle.state()).isEqualTo(LockState.LOST));
			assertThatExceptionOfType(LockLostException.class).isThrownBy(held::assertHeld)
				.withMessageContaining("'ledger/1' (LOST)");
			// Another node gets the lock once ZooKeeper expired the dead session.
			try (LockHandle successor = other.mutex("ledger/1").acquire(Duration.ofSeconds(15))) {
				freeAfterMillis.set(Duration.ofNanos(System.nanoTime() - expiredAt).toMillis());
				assertThat(successor.fencingToken()).isGreaterThan(token);
				store.writeOrThrow("ledger/1", 2L, successor.fencingToken());
			}
			// The stale holder goes on anyway: the store rejects its token.
			try {
				store.writeOrThrow("ledger/1", 3L, token);
			}
			catch (RuntimeException ex) {
				staleWrite.set(ex);
			}
		}))
			.withMessageContaining("Transaction rolled back instead of committed")
			.withMessageContaining("'ledger/1' (LOST)");
		assertThat(rows(1)).as("row written inside the lost lock").isZero();
		assertThat(staleWrite.get()).isInstanceOf(FencedStore.StaleTokenException.class);
		assertThat(store.getAcceptedWrites("ledger/1")).extracting(FencedStore.Write::value).containsExactly(1L, 2L);
		assertThat(store.getRejectedCount()).isEqualTo(1);
		System.out.println("[measure] session expiry: dead holder's lock free for another node after "
				+ freeAfterMillis.get() + " ms (session timeout " + Faults.SESSION_TIMEOUT_MS + " ms)");
		// The holder's client has a new session and locks again.
		await().atMost(Duration.ofSeconds(10)).until(() -> holderClient().getZookeeperClient().isConnected());
		assertThat(ledger().record(1, () -> {
		})).isEqualTo("recorded");
		assertThat(rows(1)).isOne();
	}

	@Test
	void methodReturningAfterItsLockWasLostReachesTheCallerAsLockLostException() {
		assertThatExceptionOfType(LockLostException.class)
			.isThrownBy(() -> ledger().compute(2, SessionExpiryFaultTests::expireWhileHeld))
			.withMessageContaining("LedgerService.compute(long, Runnable)")
			.withMessageContaining("path template 'plain/#{#id}'")
			.withMessageContaining("'plain/2' is LOST")
			.withMessageContaining("result is discarded");
		// The lock was released all the same: another node takes it.
		try (LockHandle next = other.mutex("plain/2").acquire(Duration.ofSeconds(15))) {
			assertThat(next.isHeld()).isTrue();
		}
		assertThat(LockContext.current().locks()).isEmpty();
	}

	@Test
	void methodThrowingAfterItsLockWasLostKeepsItsExceptionWithTheLossSuppressed() {
		assertThatIllegalStateException().isThrownBy(() -> ledger().fail(3, SessionExpiryFaultTests::expireWhileHeld))
			.withMessage("failed on purpose")
			.satisfies((ex) -> assertThat(ex.getSuppressed()).singleElement()
				.isInstanceOf(LockLostException.class)
				.extracting(Throwable::getMessage)
				.asString()
				.contains("'failing/3' is LOST"));
		try (LockHandle next = other.mutex("failing/3").acquire(Duration.ofSeconds(15))) {
			assertThat(next.isHeld()).isTrue();
		}
	}

	@Test
	void transactionsCommitNormallyWhileTheLockIsHeldOrWhenNoLockIsInvolved() {
		await().atMost(Duration.ofSeconds(10)).until(() -> holderClient().getZookeeperClient().isConnected());
		assertThat(ledger().record(4, () -> {
		})).isEqualTo("recorded");
		assertThat(rows(4)).isOne();
		TransactionTemplate transaction = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
		transaction.executeWithoutResult((status) -> context.getBean(JdbcTemplate.class)
			.update("insert into ledger (id, token) values (?, ?)", 5, 0));
		assertThat(rows(5)).isOne();
	}

	static class LedgerService {

		private final JdbcTemplate jdbc;

		LedgerService(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@DistributedLock("ledger/#{#id}")
		@Transactional
		public String record(long id, Runnable whileLocked) {
			this.jdbc.update("merge into ledger (id, token) key (id) values (?, ?)", id,
					LockContext.current().fencingToken());
			whileLocked.run();
			return "recorded";
		}

		@DistributedLock("plain/#{#id}")
		public String compute(long id, Runnable whileLocked) {
			whileLocked.run();
			return "result";
		}

		@DistributedLock("failing/#{#id}")
		public String fail(long id, Runnable whileLocked) {
			whileLocked.run();
			throw new IllegalStateException("failed on purpose");
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class HolderConfiguration {

		@Bean(destroyMethod = "shutdown")
		EmbeddedDatabase dataSource() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
		}

		/** Declared by the application, so distlock's post-processor adds the guard. */
		@Bean
		PlatformTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		JdbcTemplate jdbcTemplate(DataSource dataSource) {
			return new JdbcTemplate(dataSource);
		}

		@Bean
		LedgerService ledgerService(JdbcTemplate jdbc) {
			return new LedgerService(jdbc);
		}

	}

}
