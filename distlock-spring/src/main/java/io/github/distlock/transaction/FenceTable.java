package io.github.distlock.transaction;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.LockProtocol;
import io.github.distlock.core.StaleFencingTokenException;

/**
 * The fence table of a database: one row per lock, {@code (lock_path, token,
 * updated_at)}, holding the newest fencing token a committed transaction carried for it.
 * Advancing a lock's row is a conditional update ({@code token <= :t}) on the
 * transaction's own connection: the row lock it takes is held until the transaction ends,
 * so two fenced transactions of one lock commit one after the other, and the later one
 * re-reads the row the earlier one committed. The schema ships as
 * {@code io/github/distlock/transaction/schema-h2.sql} and {@code schema-postgresql.sql}.
 */
public final class FenceTable {

	/** Name of the table unless configured otherwise. */
	public static final String DEFAULT_NAME = "distlock_fence";

	// An identifier, optionally qualified by a schema: the name goes into SQL text.
	private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

	private final String name;

	private final String update;

	private final String select;

	private final String insert;

	/**
	 * How many times a commit tries the update before it is judged stale: a row made by a
	 * concurrent first commit is seen by the second try (the third is for a database that
	 * showed it to the select first).
	 */
	static final int ATTEMPTS = 3;

	private final Clock clock;

	/**
	 * Create the table's statements.
	 * @param name the table's name, optionally qualified by a schema
	 * @param clock gives {@code updated_at}
	 * @throws LockConfigurationException if the name is not an SQL identifier
	 */
	public FenceTable(String name, Clock clock) {
		if (!NAME.matcher(name).matches()) {
			throw new LockConfigurationException("distlock.fencing.table '" + name + "' is not a table name; give "
					+ "an SQL identifier such as " + DEFAULT_NAME + " or myschema." + DEFAULT_NAME);
		}
		this.name = name;
		this.clock = clock;
		this.update = "UPDATE " + name + " SET token = ?, updated_at = ? WHERE lock_path = ? AND token <= ?";
		this.select = "SELECT token FROM " + name + " WHERE lock_path = ?";
		this.insert = "INSERT INTO " + name + " (lock_path, token, updated_at) VALUES (?, ?, ?)";
	}

	/** The table's name. */
	public String name() {
		return this.name;
	}

	/**
	 * The key of a lock's row: its kind's subtree and its path, as under the lock root,
	 * because one path names different locks for different kinds, whose tokens must not
	 * fence one another.
	 * @param handle the held lock
	 * @return the key, such as {@code mutex/orders/42}
	 */
	public static String key(LockHandle handle) {
		return handle.kind().subtree() + "/" + handle.path();
	}

	/**
	 * The key of a lock's row, as {@link #key(LockHandle)} gives it for its holders.
	 * @param protocol the lock's protocol, whose subtree its kinds share
	 * @param path the lock's path
	 * @return the key, such as {@code mutex/orders/42}
	 */
	public static String key(LockProtocol protocol, LockPath path) {
		return protocol.subtree() + "/" + path;
	}

	/**
	 * Advance the row of a lock past a token, so that a commit carrying that token or an
	 * older one is refused: the fence of a forced release. The row then holds the token
	 * plus one (the next holder's token is higher: its node was made after the removed
	 * one's delete); a row already past it is left as it is.
	 * @param connection a connection in a transaction of its own
	 * @param key the lock's key
	 * @param token the removed holder's token
	 * @throws SQLException if the database fails
	 */
	void advancePast(Connection connection, String key, long token) throws SQLException {
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			if (update(connection, key, token + 1)) {
				return;
			}
			Long seen = select(connection, key);
			if (seen != null && seen > token) {
				return;
			}
			if (seen == null && insertFirst(connection, key, token + 1)) {
				return;
			}
		}
		throw new SQLException("The row of lock '" + key + "' in " + this.name + " could not be advanced past " + token
				+ " in " + ATTEMPTS + " attempts");
	}

	/**
	 * Advance the row of a lock to a fencing token in the transaction of a connection.
	 * @param connection the transaction's connection
	 * @param handle the held lock whose token fences
	 * @param description who asks, for messages
	 * @throws StaleFencingTokenException if the row holds a newer token: the transaction
	 * must roll back
	 * @throws LockConfigurationException if the table does not exist
	 * @throws SQLException if the database fails otherwise
	 */
	void advance(Connection connection, LockHandle handle, String description) throws SQLException {
		String key = key(handle);
		long token = handle.fencingToken();
		Long seen = null;
		for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
			if (update(connection, key, token)) {
				return;
			}
			seen = select(connection, key);
			if (seen != null && seen > token) {
				break;
			}
			if (seen == null && insertFirst(connection, key, token)) {
				return;
			}
			// A concurrent first commit inserted the row with an older token and
			// committed after the update's snapshot (read committed): the update, run
			// again, sees it. The select alone would refuse a rightful holder.
		}
		throw stale(handle, description, seen);
	}

	/**
	 * The first fenced commit of the lock inserts its row. A concurrent first commit may
	 * insert it too; the loser goes back to the conditional update, under a savepoint
	 * because PostgreSQL refuses every statement after a failed one.
	 * @return whether this transaction inserted the row
	 */
	private boolean insertFirst(Connection connection, String key, long token) throws SQLException {
		Savepoint savepoint = connection.setSavepoint();
		try {
			insert(connection, key, token);
			connection.releaseSavepoint(savepoint);
			return true;
		}
		catch (SQLException ex) {
			if (!isDuplicateKey(ex)) {
				throw ex;
			}
			connection.rollback(savepoint);
			return false;
		}
	}

	/**
	 * The refusal of a stale holder's commit.
	 * @param handle the stale hold
	 * @param description who asked, for the message
	 * @param seen the newer token the row holds, {@code null} if the row was not seen
	 * @return the exception
	 */
	StaleFencingTokenException stale(LockHandle handle, String description, @Nullable Long seen) {
		long token = handle.fencingToken();
		return new StaleFencingTokenException(
				description + ": the transaction was rolled back: lock '" + key(handle)
						+ "' was taken by a newer holder, whose fencing token " + seen + " committed to " + this.name
						+ " before this holder's token " + token + "; this holder lost the lock without knowing it "
						+ "(its session ended during a pause, say), so its writes must not land",
				handle.path(), token, (seen != null) ? seen : Long.MAX_VALUE);
	}

	private boolean update(Connection connection, String key, long token) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(this.update)) {
			statement.setLong(1, token);
			statement.setTimestamp(2, Timestamp.from(this.clock.instant()));
			statement.setString(3, key);
			statement.setLong(4, token);
			return statement.executeUpdate() > 0;
		}
		catch (SQLException ex) {
			if (isMissingTable(ex)) {
				throw missingTable(ex);
			}
			throw ex;
		}
	}

	private @Nullable Long select(Connection connection, String key) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(this.select)) {
			statement.setString(1, key);
			try (ResultSet result = statement.executeQuery()) {
				return result.next() ? result.getLong(1) : null;
			}
		}
	}

	private void insert(Connection connection, String key, long token) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(this.insert)) {
			statement.setString(1, key);
			statement.setLong(2, token);
			statement.setTimestamp(3, Timestamp.from(this.clock.instant()));
			statement.executeUpdate();
		}
	}

	private LockConfigurationException missingTable(SQLException ex) {
		return missingTable(ex.getMessage(), ex);
	}

	LockConfigurationException missingTable(@Nullable String message, Throwable cause) {
		return new LockConfigurationException(
				"Fence table '" + this.name + "' does not exist in the database of " + "the transaction (" + message
						+ "); create it with the schema distlock ships "
						+ "(io/github/distlock/transaction/schema-h2.sql, schema-postgresql.sql): "
						+ "distlock.fencing.initialize-schema=always does, or spring.sql.init, Flyway or Liquibase as "
						+ "docs/failure-model.md#the-fence-table shows, or name yours with distlock.fencing.table",
				cause);
	}

	private static boolean isDuplicateKey(SQLException ex) {
		return isDuplicateKey(ex.getSQLState());
	}

	private static boolean isMissingTable(SQLException ex) {
		return isMissingTable(ex.getSQLState());
	}

	// SQLSTATE class 23 is an integrity constraint violation, here the primary key.
	static boolean isDuplicateKey(@Nullable String state) {
		return state != null && state.startsWith("23");
	}

	// 42S02 is the standard "table not found" (H2 among others), 42P01 PostgreSQL's.
	static boolean isMissingTable(@Nullable String state) {
		return "42S02".equals(state) || "42P01".equals(state);
	}

	/** The clock of {@code updated_at}. */
	Clock clock() {
		return this.clock;
	}

}
