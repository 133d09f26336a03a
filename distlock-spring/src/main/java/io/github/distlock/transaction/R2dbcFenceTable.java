package io.github.distlock.transaction;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Optional;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.R2dbcException;
import io.r2dbc.spi.Statement;
import reactor.core.publisher.Mono;

import org.springframework.r2dbc.core.binding.BindMarkers;
import org.springframework.r2dbc.core.binding.BindMarkersFactory;
import org.springframework.r2dbc.core.binding.BindMarkersFactoryResolver;

import io.github.distlock.core.LockHandle;

/**
 * The statements of a {@link FenceTable} on an R2DBC connection, with the bind markers of
 * its database ({@code $1} on PostgreSQL and H2, {@code ?} elsewhere). The same steps as
 * on JDBC: the conditional update, and for a lock's first fenced commit the insert of its
 * row, under a savepoint so that the loser of a race to insert goes back to the update.
 */
final class R2dbcFenceTable {

	private static final String SAVEPOINT = "distlock_fence_insert";

	private final FenceTable table;

	private final String update;

	private final String select;

	private final String insert;

	R2dbcFenceTable(FenceTable table, ConnectionFactory connectionFactory) {
		this.table = table;
		BindMarkersFactory markers = BindMarkersFactoryResolver.resolve(connectionFactory);
		BindMarkers update = markers.create();
		this.update = "UPDATE " + table.name() + " SET token = " + update.next().getPlaceholder() + ", updated_at = "
				+ update.next().getPlaceholder() + " WHERE lock_path = " + update.next().getPlaceholder()
				+ " AND token <= " + update.next().getPlaceholder();
		this.select = "SELECT token FROM " + table.name() + " WHERE lock_path = "
				+ markers.create().next().getPlaceholder();
		BindMarkers insert = markers.create();
		this.insert = "INSERT INTO " + table.name() + " (lock_path, token, updated_at) VALUES ("
				+ insert.next().getPlaceholder() + ", " + insert.next().getPlaceholder() + ", "
				+ insert.next().getPlaceholder() + ")";
	}

	/**
	 * Advance the row of a lock to the hold's fencing token in the transaction of a
	 * connection.
	 * @param connection the transaction's connection
	 * @param handle the held lock whose token fences
	 * @param description who asks, for messages
	 * @return completes when the row holds the token; a
	 * {@link io.github.distlock.core.StaleFencingTokenException} if it holds a newer one
	 */
	Mono<Void> advance(Connection connection, LockHandle handle, String description) {
		return advance(connection, FenceTable.key(handle), handle, description, 1);
	}

	// As FenceTable's: a row seen with an older token was committed by a concurrent
	// first commit after the update's snapshot, and the update is tried again.
	private Mono<Void> advance(Connection connection, String key, LockHandle handle, String description, int attempt) {
		long token = handle.fencingToken();
		return update(connection, key, token).flatMap((updated) -> {
			if (updated) {
				return Mono.<Void>empty();
			}
			return select(connection, key).map(Optional::of).defaultIfEmpty(Optional.empty()).flatMap((seen) -> {
				if ((seen.isPresent() && seen.get() > token) || attempt == FenceTable.ATTEMPTS) {
					return Mono.<Void>error(this.table.stale(handle, description, seen.orElse(null)));
				}
				Mono<Boolean> inserted = seen.isPresent() ? Mono.just(false) : insertFirst(connection, key, token);
				return inserted.flatMap((done) -> done ? Mono.<Void>empty()
						: advance(connection, key, handle, description, attempt + 1));
			});
		});
	}

	/**
	 * Advance the row of a lock past a removed holder's token, as {@link FenceTable}'s
	 * {@code advancePast} does: the fence of a forced release.
	 * @param connection a connection in a transaction of its own
	 * @param key the lock's key
	 * @param token the removed holder's token
	 * @param attempt the attempt, from 1
	 * @return completes once the row is past the token
	 */
	Mono<Void> advancePast(Connection connection, String key, long token, int attempt) {
		return update(connection, key, token + 1).flatMap((updated) -> {
			if (updated) {
				return Mono.<Void>empty();
			}
			return select(connection, key).map(Optional::of).defaultIfEmpty(Optional.empty()).flatMap((seen) -> {
				if (seen.isPresent() && seen.get() > token) {
					return Mono.<Void>empty();
				}
				if (attempt == FenceTable.ATTEMPTS) {
					return Mono
						.<Void>error(new IllegalStateException("The row of lock '" + key + "' in " + this.table.name()
								+ " could not be advanced past " + token + " in " + attempt + " attempts"));
				}
				Mono<Boolean> inserted = seen.isPresent() ? Mono.just(false) : insertFirst(connection, key, token + 1);
				return inserted
					.flatMap((done) -> done ? Mono.<Void>empty() : advancePast(connection, key, token, attempt + 1));
			});
		});
	}

	/**
	 * The first fenced commit of the lock inserts its row; a concurrent first commit may
	 * insert it too, and the loser goes back to the conditional update, under a savepoint
	 * because PostgreSQL refuses every statement after a failed one.
	 * @return whether this transaction inserted the row
	 */
	private Mono<Boolean> insertFirst(Connection connection, String key, long token) {
		return Mono.from(connection.createSavepoint(SAVEPOINT))
			.then(rowsUpdated(connection.createStatement(this.insert).bind(0, key).bind(1, token).bind(2, now())))
			.then(Mono.from(connection.releaseSavepoint(SAVEPOINT)))
			.thenReturn(true)
			.onErrorResume((ex) -> ex instanceof R2dbcException r2dbc && FenceTable.isDuplicateKey(r2dbc.getSqlState()),
					(ex) -> Mono.from(connection.rollbackTransactionToSavepoint(SAVEPOINT)).thenReturn(false));
	}

	private Mono<Boolean> update(Connection connection, String key, long token) {
		Statement statement = connection.createStatement(this.update)
			.bind(0, token)
			.bind(1, now())
			.bind(2, key)
			.bind(3, token);
		return rowsUpdated(statement).map((count) -> count > 0)
			.onErrorMap((ex) -> ex instanceof R2dbcException r2dbc && FenceTable.isMissingTable(r2dbc.getSqlState()),
					(ex) -> this.table.missingTable(ex.getMessage(), ex));
	}

	private Mono<Long> select(Connection connection, String key) {
		return Mono.from(connection.createStatement(this.select).bind(0, key).execute())
			.flatMap((result) -> Mono.from(result.map((row, metadata) -> row.get(0, Long.class))));
	}

	private static Mono<Long> rowsUpdated(Statement statement) {
		return Mono.from(statement.execute()).flatMap((result) -> Mono.from(result.getRowsUpdated()));
	}

	private LocalDateTime now() {
		return LocalDateTime.ofInstant(this.table.clock().instant(), ZoneOffset.UTC);
	}

}
