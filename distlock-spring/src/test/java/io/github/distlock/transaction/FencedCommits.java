package io.github.distlock.transaction;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import javax.sql.DataSource;

import io.r2dbc.h2.H2ConnectionFactory;
import io.r2dbc.spi.ConnectionFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.DistributedLockException;
import io.github.distlock.core.LockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.Locks;
import io.github.distlock.core.StaleFencingTokenException;
import io.github.distlock.testsupport.EmbeddedPostgresExtension;
import io.github.distlock.testsupport.LockTestContexts;

/**
 * The real-database variant of the checker's fenced store: a database (in-memory H2, or a
 * real PostgreSQL) with distlock's fence table (from the schema distlock ships), written
 * by fenced transactions of several nodes, each with its own data source (or R2DBC
 * connection factory), transaction manager and fencing, as separate applications sharing
 * a database: JDBC transactions through {@link FencedTransactions}, reactive ones through
 * {@link FencedReactiveTransactions}, or the annotation path (a Spring context per node
 * with a {@code @DistributedLock(fenced = true)} and {@code @Transactional} method), as
 * the {@link Store} says.
 * <p>
 * A fenced write updates the lock's {@code stock} row and appends a row to
 * {@code commits} in the same transaction. The update takes the {@code stock} row's lock
 * before the row is appended, and holds it until the transaction ends, so the ids of the
 * committed {@code commits} rows of one lock are in commit order: the database itself
 * records the order in which it accepted the commits, and {@link #judge} reads it back.
 */
final class FencedCommits {

	/** How long a holder waits for its lock. */
	static final Duration WAIT = Duration.ofSeconds(10);

	private final Store store;

	private final JdbcTemplate jdbc;

	private final List<Attempt> attempts = new ArrayList<>();

	FencedCommits(List<String> locks, Store store) {
		this.store = store;
		this.jdbc = new JdbcTemplate(store.dataSource());
		new ResourceDatabasePopulator(
				new ClassPathResource("io/github/distlock/transaction/schema-" + store.platform() + ".sql"))
			.execute(this.jdbc.getDataSource());
		this.jdbc.execute("create table stock (lock_path varchar(200) primary key, token bigint not null, "
				+ "writer varchar(64) not null)");
		this.jdbc.execute("create table commits (id bigint generated always as identity primary key, "
				+ "lock_path varchar(200) not null, token bigint not null, writer varchar(64) not null)");
		for (String lock : locks) {
			this.jdbc.update("insert into stock (lock_path, token, writer) values (?, 0, 'none')", lock);
		}
	}

	/**
	 * The fenced transactions of one node: its own data source on the shared database,
	 * transaction manager and fencing.
	 * @param locks the node's lock API
	 * @return the node's writer; closed with the node
	 */
	Writer writer(Locks locks) {
		if (this.store.access() == Access.R2DBC) {
			ConnectionFactory connectionFactory = this.store.connectionFactory();
			R2dbcTransactionManager transactionManager = new R2dbcTransactionManager(connectionFactory);
			R2dbcTransactionFencing fencing = new R2dbcTransactionFencing(() -> connectionFactory,
					() -> transactionManager, new FenceTable(FenceTable.DEFAULT_NAME, Clock.systemUTC()));
			return new ReactiveWriter(locks, new FencedReactiveTransactions(fencing),
					DatabaseClient.create(connectionFactory));
		}
		DataSource dataSource = this.store.dataSource();
		if (this.store.access() == Access.ANNOTATION) {
			return new AnnotatedWriter(LockTestContexts.startOn(locks,
					(context) -> context.registerBean(DataSource.class, () -> dataSource), AnnotatedNode.class));
		}
		DataSourceTransactionManager transactionManager = new DataSourceTransactionManager(dataSource);
		JdbcTransactionFencing fencing = new JdbcTransactionFencing(() -> dataSource, () -> transactionManager,
				new FenceTable(FenceTable.DEFAULT_NAME, Clock.systemUTC()));
		transactionManager.addListener(fencing);
		return new JdbcWriter(locks, new FencedTransactions(transactionManager, fencing), new JdbcTemplate(dataSource));
	}

	/** Record the outcome of a commit attempt (after the holder's lock was looked at). */
	synchronized void record(Attempt attempt) {
		this.attempts.add(attempt);
	}

	synchronized List<Attempt> attempts() {
		return List.copyOf(this.attempts);
	}

	/**
	 * Judge the attempts against what the database accepted.
	 * <ul>
	 * <li>A stale commit accepted: a committed transaction whose token is lower than the
	 * token of a transaction of the same lock the database committed before it.</li>
	 * <li>A rightful commit refused: an attempt turned away though its holder's lock node
	 * still existed on the server after the attempt ended (so the holder held the lock
	 * throughout, and no holder with a newer token can have been granted it, let alone
	 * committed), or turned away naming a newer token that no committed transaction of
	 * the lock carried, or one not newer than its own.</li>
	 * </ul>
	 */
	Judgement judge() {
		List<String> violations = new ArrayList<>();
		List<Integer> flagged = new ArrayList<>();
		Map<String, Attempt> byWriter = new HashMap<>();
		for (Attempt attempt : attempts()) {
			byWriter.put(attempt.writer(), attempt);
		}
		Map<String, Long> highest = new HashMap<>();
		Map<String, List<Long>> committed = new HashMap<>();
		int staleAccepted = 0;
		for (Map<String, Object> row : this.jdbc
			.queryForList("select id, lock_path, token, writer from commits order by id")) {
			String lock = (String) row.get("LOCK_PATH");
			long token = ((Number) row.get("TOKEN")).longValue();
			long before = highest.getOrDefault(lock, 0L);
			if (token < before) {
				staleAccepted++;
				violations.add("stale commit accepted: commit #" + row.get("ID") + " of " + row.get("WRITER") + " on "
						+ lock + " with token " + token + ", after token " + before + " had committed");
				Attempt attempt = byWriter.get((String) row.get("WRITER"));
				if (attempt != null) {
					flagged.add(attempt.round());
				}
			}
			highest.put(lock, Math.max(before, token));
			committed.computeIfAbsent(lock, (key) -> new ArrayList<>()).add(token);
		}
		int rightfulRefused = 0;
		int committedAttempts = 0;
		int refused = 0;
		int proven = 0;
		for (Attempt attempt : attempts()) {
			if (attempt.heldAfter()) {
				proven++;
			}
			if (attempt.committed()) {
				committedAttempts++;
				if (!committed.getOrDefault(attempt.lock(), List.of()).contains(attempt.token())) {
					violations.add("lost commit: " + attempt + " committed, but the database has no commit of it");
					flagged.add(attempt.round());
				}
				continue;
			}
			refused++;
			String why = null;
			if (attempt.heldAfter()) {
				why = "its lock node still existed after the attempt";
			}
			else if (attempt.newerToken() <= attempt.token()) {
				why = "the newer token it names is not newer";
			}
			else if (!committed.getOrDefault(attempt.lock(), List.of()).contains(attempt.newerToken())) {
				why = "no transaction carrying the newer token it names committed";
			}
			if (why != null) {
				rightfulRefused++;
				violations.add("rightful commit refused: " + attempt + ": " + why);
				flagged.add(attempt.round());
			}
		}
		for (Map<String, Object> row : this.jdbc.queryForList("select lock_path, token from stock")) {
			String lock = (String) row.get("LOCK_PATH");
			long token = ((Number) row.get("TOKEN")).longValue();
			if (token != highest.getOrDefault(lock, 0L)) {
				violations.add("lost write: " + lock + " holds the write of token " + token
						+ ", not that of the newest committed token " + highest.getOrDefault(lock, 0L));
			}
		}
		int total = committed.values().stream().mapToInt(List::size).sum();
		if (total != committedAttempts) {
			violations.add("commits: the database has " + total + " commits, the writers saw " + committedAttempts);
		}
		return new Judgement(attempts().size(), committedAttempts, refused, proven, staleAccepted, rightfulRefused,
				violations, flagged.stream().distinct().toList());
	}

	void shutdown() {
		this.store.shutdown(this.jdbc);
	}

	/** The fenced transactions of one node. */
	interface Writer extends AutoCloseable {

		/**
		 * Take a mutex and run a fenced transaction under it: once the lock is held and
		 * the transaction has begun, report the hold; wait for the signal to write; then
		 * write the lock's row and the commit's record, and commit; once the commit
		 * attempt ended, and before the writer lets the lock go, call {@code ended}.
		 * @return the newer token that refused the commit, or 0 if it committed
		 * @throws DistributedLockException if the lock was not acquired
		 */
		long write(String path, String lock, String writer, Consumer<LockHandle> opened, Runnable awaitWrite,
				Runnable ended);

		@Override
		default void close() {
		}

	}

	/** A node's fenced reactive transactions (R2DBC), on holds taken by the lock API. */
	static final class ReactiveWriter implements Writer {

		private final Locks locks;

		private final FencedReactiveTransactions transactions;

		private final DatabaseClient database;

		ReactiveWriter(Locks locks, FencedReactiveTransactions transactions, DatabaseClient database) {
			this.locks = locks;
			this.transactions = transactions;
			this.database = database;
		}

		@Override
		public long write(String path, String lock, String writer, Consumer<LockHandle> opened, Runnable awaitWrite,
				Runnable ended) {
			LockHandle handle = this.locks.mutex(path).acquire(WAIT);
			AtomicBoolean reported = new AtomicBoolean();
			try {
				this.transactions.execute(handle, (status) -> Mono.fromRunnable(() -> {
					reported.set(true);
					opened.accept(handle);
				})
					.then(Mono.fromRunnable(awaitWrite).subscribeOn(Schedulers.boundedElastic()))
					.then(this.database.sql("update stock set token = :token, writer = :writer where lock_path = :lock")
						.bind("token", handle.fencingToken())
						.bind("writer", writer)
						.bind("lock", lock)
						.then())
					.then(this.database
						.sql("insert into commits (lock_path, token, writer) values (:lock, :token, :writer)")
						.bind("lock", lock)
						.bind("token", handle.fencingToken())
						.bind("writer", writer)
						.then()))
					.then()
					.block(Duration.ofSeconds(120));
				return 0;
			}
			catch (StaleFencingTokenException ex) {
				return ex.getNewerToken();
			}
			finally {
				// Once reported, the hold is the caller's to close.
				if (reported.get()) {
					ended.run();
				}
				else {
					handle.close();
				}
			}
		}

	}

	/** A node's fenced JDBC transactions, on holds taken by the lock API. */
	static final class JdbcWriter implements Writer {

		private final Locks locks;

		private final FencedTransactions transactions;

		private final JdbcTemplate jdbc;

		JdbcWriter(Locks locks, FencedTransactions transactions, JdbcTemplate jdbc) {
			this.locks = locks;
			this.transactions = transactions;
			this.jdbc = jdbc;
		}

		@Override
		public long write(String path, String lock, String writer, Consumer<LockHandle> opened, Runnable awaitWrite,
				Runnable ended) {
			LockHandle handle = this.locks.mutex(path).acquire(WAIT);
			AtomicBoolean reported = new AtomicBoolean();
			try {
				this.transactions.execute(handle, (status) -> {
					reported.set(true);
					opened.accept(handle);
					awaitWrite.run();
					writeRows(this.jdbc, handle, lock, writer);
					return null;
				});
				return 0;
			}
			catch (StaleFencingTokenException ex) {
				return ex.getNewerToken();
			}
			finally {
				// Once reported, the hold is the caller's to close.
				if (reported.get()) {
					ended.run();
				}
				else {
					handle.close();
				}
			}
		}

	}

	/**
	 * A node that is a Spring application: the annotation path, a
	 * {@code @DistributedLock(fenced = true)} and {@code @Transactional} method
	 * ({@link AnnotatedNode}), whose lock wraps its transaction.
	 */
	static final class AnnotatedWriter implements Writer {

		private final AnnotationConfigApplicationContext context;

		private final AnnotatedStock stock;

		AnnotatedWriter(AnnotationConfigApplicationContext context) {
			this.context = context;
			this.stock = context.getBean(AnnotatedStock.class);
		}

		@Override
		public long write(String path, String lock, String writer, Consumer<LockHandle> opened, Runnable awaitWrite,
				Runnable ended) {
			AtomicBoolean committed = new AtomicBoolean();
			try {
				this.stock.write(path, lock, writer, opened, awaitWrite, ended, committed);
				return 0;
			}
			catch (StaleFencingTokenException ex) {
				return ex.getNewerToken();
			}
			catch (LockLostException ex) {
				// Told after the commit that the lock was released or lost meanwhile:
				// the result is discarded, the commit stands.
				if (committed.get()) {
					return 0;
				}
				throw ex;
			}
		}

		@Override
		public void close() {
			this.context.close();
		}

	}

	/** The bean whose annotated method the {@link AnnotatedWriter} calls. */
	static class AnnotatedStock {

		private final JdbcTemplate jdbc;

		AnnotatedStock(JdbcTemplate jdbc) {
			this.jdbc = jdbc;
		}

		@DistributedLock(value = "#{#path}", fenced = true, waitTime = "10s")
		@Transactional
		public void write(String path, String lock, String writer, Consumer<LockHandle> opened, Runnable awaitWrite,
				Runnable ended, AtomicBoolean committed) {
			LockHandle handle = LockContext.current().locks().get(0);
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				// Inside the call: the lock wraps the transaction, still held here.
				@Override
				public void afterCompletion(int status) {
					committed.set(status == STATUS_COMMITTED);
					ended.run();
				}

			});
			opened.accept(handle);
			awaitWrite.run();
			writeRows(this.jdbc, handle, lock, writer);
		}

	}

	/** The Spring configuration of an annotated node, on the context's data source. */
	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class AnnotatedNode {

		@Bean
		DataSourceTransactionManager transactionManager(DataSource dataSource, JdbcTransactionFencing fencing) {
			DataSourceTransactionManager transactionManager = new DataSourceTransactionManager(dataSource);
			transactionManager.addListener(fencing);
			return transactionManager;
		}

		@Bean
		JdbcTransactionFencing transactionFencing(ObjectProvider<DataSource> dataSource,
				ObjectProvider<PlatformTransactionManager> transactionManager) {
			return new JdbcTransactionFencing(dataSource::getIfUnique, transactionManager::getIfUnique,
					new FenceTable(FenceTable.DEFAULT_NAME, Clock.systemUTC()));
		}

		@Bean
		AnnotatedStock annotatedStock(DataSource dataSource) {
			return new AnnotatedStock(new JdbcTemplate(dataSource));
		}

	}

	/** Update the lock's row, then append the commit's record (see the class docs). */
	private static void writeRows(JdbcTemplate jdbc, LockHandle handle, String lock, String writer) {
		jdbc.update("update stock set token = ?, writer = ? where lock_path = ?", handle.fencingToken(), writer, lock);
		jdbc.update("insert into commits (lock_path, token, writer) values (?, ?, ?)", lock, handle.fencingToken(),
				writer);
	}

	/**
	 * Where the fenced commits land: a database, reached by JDBC or by R2DBC.
	 */
	interface Store {

		/** The platform of the shipped schema, such as {@code h2}. */
		String platform();

		/** How the nodes write. */
		Access access();

		/** A new data source on the database (the judge's, or a JDBC node's). */
		DataSource dataSource();

		/** A new R2DBC connection factory on the database, for a reactive node. */
		ConnectionFactory connectionFactory();

		/** Release the database once judged. */
		void shutdown(JdbcTemplate jdbc);

		/**
		 * An in-memory H2 database.
		 * @param access how the nodes write
		 * @return the store
		 */
		static Store h2(Access access) {
			// A writer may wait for another's row lock while that one's commit runs;
			// never long, but H2's default of 1 s could end it on a loaded machine.
			String name = "fenced-history-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=60000";
			return new Store() {

				@Override
				public String platform() {
					return "h2";
				}

				@Override
				public Access access() {
					return access;
				}

				@Override
				public DataSource dataSource() {
					return new DriverManagerDataSource("jdbc:h2:mem:" + name);
				}

				@Override
				public ConnectionFactory connectionFactory() {
					return H2ConnectionFactory.inMemory(name);
				}

				@Override
				public void shutdown(JdbcTemplate jdbc) {
					jdbc.execute("shutdown");
				}

				@Override
				public String toString() {
					return "H2 through " + access;
				}

			};
		}

		/**
		 * A database of a real PostgreSQL server.
		 * @param postgres the server's extension, the database its test class's
		 * @param access how the nodes write
		 * @return the store
		 */
		static Store postgres(EmbeddedPostgresExtension postgres, Access access) {
			return new Store() {

				@Override
				public String platform() {
					return "postgresql";
				}

				@Override
				public Access access() {
					return access;
				}

				@Override
				public DataSource dataSource() {
					return postgres.dataSource();
				}

				@Override
				public ConnectionFactory connectionFactory() {
					return postgres.connectionFactory();
				}

				@Override
				public void shutdown(JdbcTemplate jdbc) {
					jdbc.execute("drop table commits");
					jdbc.execute("drop table stock");
					jdbc.execute("drop table distlock_fence");
				}

				@Override
				public String toString() {
					return "PostgreSQL through " + access;
				}

			};
		}

	}

	/** How the nodes write. */
	enum Access {

		/** {@link FencedTransactions} on holds of the lock API. */
		JDBC,

		/** {@link FencedReactiveTransactions} on holds of the lock API. */
		R2DBC,

		/**
		 * A {@code @DistributedLock(fenced = true)} and {@code @Transactional} method of
		 * a Spring context, on JDBC.
		 */
		ANNOTATION;

		@Override
		public String toString() {
			return (this != ANNOTATION) ? name() : "the annotation (JDBC)";
		}

	}

	/**
	 * One holder's commit attempt.
	 *
	 * @param round the round
	 * @param writer who
	 * @param lock the lock's key
	 * @param token the holder's fencing token
	 * @param committed whether the commit was accepted
	 * @param newerToken the newer token the refusal named, 0 if it committed
	 * @param heldAfter whether the holder's lock node still existed on the server after
	 * the attempt ended
	 */
	record Attempt(int round, String writer, String lock, long token, boolean committed, long newerToken,
			boolean heldAfter) {

		@Override
		public String toString() {
			return "round " + this.round + ", " + this.writer + " on " + this.lock + " with token " + this.token
					+ (this.committed ? ", committed" : ", refused (newer token " + this.newerToken + ")")
					+ (this.heldAfter ? ", lock node there after" : "");
		}

	}

	/**
	 * What the database accepted and refused.
	 *
	 * @param attempts commit attempts
	 * @param committed attempts the database committed
	 * @param refused attempts refused as stale
	 * @param proven attempts whose holder provably held the lock throughout
	 * @param staleAccepted stale commits accepted
	 * @param rightfulRefused rightful commits refused
	 * @param violations each one found
	 * @param flagged the rounds of the commits a violation names
	 */
	record Judgement(int attempts, int committed, int refused, int proven, int staleAccepted, int rightfulRefused,
			List<String> violations, List<Integer> flagged) {
	}

}
