package io.github.distlock.transaction;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.support.SQLStateSQLExceptionTranslator;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import io.github.distlock.core.Handle;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.spi.FenceStore;
import io.github.distlock.interceptor.TransactionFencing;

/**
 * Fences Spring transactions on a JDBC {@link DataSource}: a transaction that runs inside
 * a fenced call advances, just before it commits, the fence row of each of the call's
 * locks ({@link FenceTable}) on its own connection, and rolls back with a
 * {@link io.github.distlock.core.StaleFencingTokenException} when a newer holder
 * committed first. Works with every transaction manager that binds the data source's
 * connection to the thread: {@code DataSourceTransactionManager} (also under
 * {@code JdbcClient} and {@code JdbcTemplate}) and {@code JpaTransactionManager} with a
 * data source.
 * <p>
 * The fenced calls of a thread are a stack: a transaction that begins inside them (this
 * is a {@link TransactionExecutionListener}, added to the transaction managers) is fenced
 * by all of them, as is the transaction running when a fenced call enters. One
 * synchronization per transaction holds its fences; a lock entered twice (a re-entry, a
 * downgrade) fences once, with the token of the hold it entered.
 * <p>
 * As a {@link FenceStore}, it advances a lock's row past a holder removed by
 * {@code LockAdmin#forceRelease}, in a transaction of its own on the data source.
 */
public final class JdbcTransactionFencing implements TransactionFencing, TransactionExecutionListener, FenceStore {

	private final Supplier<@Nullable DataSource> dataSource;

	private final Supplier<@Nullable PlatformTransactionManager> transactionManager;

	private final FenceTable table;

	private final ThreadLocal<Deque<Call>> calls = ThreadLocal.withInitial(ArrayDeque::new);

	/**
	 * Create the fencing.
	 * @param dataSource the data source the fenced transactions run on, asked for when
	 * first needed; {@code null} if the application has none (a fenced annotation is then
	 * refused at startup)
	 * @param transactionManager the transaction manager, only asked whether there is one
	 * @param table the fence table
	 */
	public JdbcTransactionFencing(Supplier<@Nullable DataSource> dataSource,
			Supplier<@Nullable PlatformTransactionManager> transactionManager, FenceTable table) {
		this.dataSource = dataSource;
		this.transactionManager = transactionManager;
		this.table = table;
	}

	/** The fence table. */
	public FenceTable table() {
		return this.table;
	}

	/**
	 * Advance the row of a lock past a removed holder's token, in a transaction of its
	 * own on the data source: that holder's fenced commits are refused from then on.
	 * Without a data source there is nothing to fence.
	 * @throws IllegalStateException if the database refused it
	 */
	@Override
	public void advancePast(LockProtocol protocol, LockPath path, long fencingToken) {
		DataSource dataSource = this.dataSource.get();
		if (dataSource == null) {
			return;
		}
		String key = FenceTable.key(protocol, path);
		try (Connection connection = dataSource.getConnection()) {
			boolean autoCommit = connection.getAutoCommit();
			connection.setAutoCommit(false);
			try {
				this.table.advancePast(connection, key, fencingToken);
				connection.commit();
			}
			catch (SQLException | RuntimeException ex) {
				connection.rollback();
				throw ex;
			}
			finally {
				connection.setAutoCommit(autoCommit);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException("Advancing the fence of lock '" + key + "' in " + this.table.name()
					+ " past token " + fencingToken + " failed: " + ex.getMessage(), ex);
		}
	}

	@Override
	public String toString() {
		return "JDBC fence table " + this.table.name();
	}

	@Override
	public void checkUsable(String description) {
		List<String> missing = new ArrayList<>();
		if (this.dataSource.get() == null) {
			missing.add("single (or primary) DataSource");
		}
		if (this.transactionManager.get() == null) {
			missing.add("PlatformTransactionManager");
		}
		if (!missing.isEmpty()) {
			throw new LockConfigurationException(description + ": fenced = true, but the application has no "
					+ String.join(" and no ", missing) + ", so its transactions cannot be fenced; add "
					+ "spring-boot-starter-jdbc (or -data-jpa) with a database, or remove fenced = true "
					+ "(see docs/failure-model.md#fenced-transactions)");
		}
	}

	@Override
	public FencedCall enter(String description, Handle handle) {
		Call call = new Call(description, handle.handles());
		this.calls.get().push(call);
		if (TransactionSynchronizationManager.isSynchronizationActive()
				&& TransactionSynchronizationManager.isActualTransactionActive()) {
			fence(List.of(call));
		}
		return call;
	}

	@Override
	public void afterBegin(TransactionExecution transaction, @Nullable Throwable beginFailure) {
		Deque<Call> calls = this.calls.get();
		if (beginFailure == null && !calls.isEmpty() && TransactionSynchronizationManager.isSynchronizationActive()) {
			// Outermost first: a lock entered twice fences with the hold it entered.
			List<Call> outermostFirst = new ArrayList<>(calls);
			Collections.reverse(outermostFirst);
			fence(outermostFirst);
		}
	}

	/** Add the calls' locks to the fences of the current transaction. */
	private void fence(Iterable<Call> calls) {
		Fences fences = null;
		for (TransactionSynchronization synchronization : TransactionSynchronizationManager.getSynchronizations()) {
			if (synchronization instanceof Fences existing && existing.owner() == this) {
				fences = existing;
			}
		}
		if (fences == null) {
			fences = new Fences(this);
			TransactionSynchronizationManager.registerSynchronization(fences);
		}
		for (Call call : calls) {
			fences.add(call);
			call.fencedTransaction = true;
		}
	}

	private void leave(Call call) {
		Deque<Call> calls = this.calls.get();
		calls.remove(call);
		if (calls.isEmpty()) {
			this.calls.remove();
		}
	}

	/** Advance the fences of a committing transaction, in path order. */
	private void advance(Map<String, Fence> fences) {
		DataSource dataSource = this.dataSource.get();
		if (dataSource == null || !TransactionSynchronizationManager.hasResource(dataSource)) {
			throw new LockConfigurationException("A fenced transaction cannot commit its fence: it does not run on "
					+ "the application's DataSource (" + dataSource + "), so the fence row would not commit with "
					+ "its writes; run it with a DataSourceTransactionManager or a JpaTransactionManager of that "
					+ "DataSource");
		}
		Connection connection = DataSourceUtils.getConnection(dataSource);
		try {
			// One order for every transaction, so that two fencing the same locks do not
			// wait for each other's rows in opposite orders.
			List<Fence> ordered = new ArrayList<>(fences.values());
			ordered.sort(Comparator.comparing(Fence::key));
			for (Fence fence : ordered) {
				this.table.advance(connection, fence.handle(), fence.description());
			}
		}
		catch (SQLException ex) {
			RuntimeException translated = new SQLStateSQLExceptionTranslator().translate("Advancing fence",
					"table " + this.table.name(), ex);
			throw (translated != null) ? translated : new IllegalStateException(ex);
		}
		finally {
			DataSourceUtils.releaseConnection(connection, dataSource);
		}
	}

	private final class Call implements FencedCall {

		private final String description;

		private final List<LockHandle> handles;

		private boolean fencedTransaction;

		Call(String description, List<LockHandle> handles) {
			this.description = description;
			this.handles = handles;
		}

		@Override
		public boolean fencedTransaction() {
			return this.fencedTransaction;
		}

		@Override
		public void close() {
			leave(this);
		}

	}

	private record Fence(String key, LockHandle handle, String description) {
	}

	/** The fences of one transaction, advanced just before it commits. */
	private static final class Fences implements TransactionSynchronization {

		private final JdbcTransactionFencing owner;

		// By row key: the first hold of a lock fences, a re-entry carries its token.
		private final Map<String, Fence> fences = new LinkedHashMap<>();

		Fences(JdbcTransactionFencing owner) {
			this.owner = owner;
		}

		JdbcTransactionFencing owner() {
			return this.owner;
		}

		void add(Call call) {
			for (LockHandle handle : call.handles) {
				String key = FenceTable.key(handle);
				this.fences.putIfAbsent(key, new Fence(key, handle, call.description));
			}
		}

		// Before the check that the locks are still held as this process sees them: when
		// a newer holder committed, the rollback names it, whatever this process knows.
		@Override
		public int getOrder() {
			return Ordered.LOWEST_PRECEDENCE - 1;
		}

		@Override
		public void beforeCommit(boolean readOnly) {
			// A read-only transaction writes nothing that a fence would have to keep out.
			if (!readOnly) {
				this.owner.advance(this.fences);
			}
		}

	}

}
