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
 * Spring-dependent (spring-tx, spring-jdbc); the core API stays free of it.
 */
@NullMarked
package io.github.distlock.transaction;

import org.jspecify.annotations.NullMarked;
