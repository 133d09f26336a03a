/**
 * distlock: fenced transactions. A transaction that runs inside a fenced call
 * ({@code fenced = true} on {@code @DistributedLock} or {@code @WriteLock}, or
 * {@link io.github.distlock.transaction.FencedTransactions} for a programmatic hold)
 * advances, just before it commits, the row of each of its locks in the fence table
 * ({@link io.github.distlock.transaction.FenceTable}) on its own connection, and rolls
 * back with a {@link io.github.distlock.core.StaleFencingTokenException} when a holder
 * with a newer fencing token committed first
 * ({@link io.github.distlock.transaction.JdbcTransactionFencing}). The lock wraps the
 * transaction, so the tokens are known when it begins; the interceptor tells this package
 * of fenced calls through {@link io.github.distlock.interceptor.TransactionFencing}.
 * <p>
 * Reactive methods fence their R2DBC transaction
 * ({@link io.github.distlock.transaction.R2dbcTransactionFencing}, through
 * {@link io.github.distlock.interceptor.ReactiveTransactionFencing}): once the locks are
 * held, the work runs in a reactive transaction with the method's {@code @Transactional}
 * attributes, and a reactive synchronization advances the rows on the transaction's
 * connection just before it commits ({@code R2dbcFenceTable}, the same statements with
 * the database's bind markers);
 * {@link io.github.distlock.transaction.FencedReactiveTransactions} for programmatic
 * holds. A leader's calls ({@code @LeaderOnly(fenced = true)}) fence the row
 * {@code leader/<group>} with the tenure's epoch.
 * <p>
 * Spring-dependent (spring-tx, spring-jdbc, spring-r2dbc, all optional); the core API
 * stays free of it.
 */
@NullMarked
package io.github.distlock.transaction;

import org.jspecify.annotations.NullMarked;
