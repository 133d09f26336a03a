package io.github.distlock.transaction;

import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

import io.github.distlock.core.Handle;
import io.github.distlock.core.LockHandle;
import io.github.distlock.interceptor.TransactionFencing;

/**
 * Runs transactions fenced by a lock held through the programmatic API: the transaction
 * commits only if no holder of the handle's locks with a newer fencing token committed
 * before it, else it rolls back with a
 * {@link io.github.distlock.core.StaleFencingTokenException}. A multi-lock's handle
 * fences every path.
 *
 * <pre class="code">
 * try (LockHandle handle = locks.mutex("stock/" + sku).acquire(Duration.ofSeconds(5))) {
 *     fencedTransactions.execute(handle, (status) -&gt; jdbc.update(...));
 * }
 * </pre>
 */
public final class FencedTransactions {

	private final PlatformTransactionManager transactionManager;

	private final TransactionFencing fencing;

	/**
	 * Create the helper.
	 * @param transactionManager the transaction manager of the fenced transactions
	 * @param fencing the fencing of the transaction manager's data source
	 */
	public FencedTransactions(PlatformTransactionManager transactionManager, TransactionFencing fencing) {
		this.transactionManager = transactionManager;
		this.fencing = fencing;
	}

	/**
	 * Run a callback in a new transaction (or the running one) fenced by a handle.
	 * @param handle the held lock or locks
	 * @param action the transaction's work
	 * @return the action's result
	 * @throws io.github.distlock.core.StaleFencingTokenException if a newer holder of one
	 * of the locks committed first (the transaction was rolled back)
	 */
	public <T> @Nullable T execute(Handle handle, TransactionCallback<T> action) {
		return execute(handle, TransactionDefinition.withDefaults(), action);
	}

	/**
	 * Run a callback in a transaction of the given definition fenced by a handle.
	 * @param handle the held lock or locks
	 * @param definition the transaction's propagation, isolation, timeout
	 * @param action the transaction's work
	 * @return the action's result
	 * @throws io.github.distlock.core.StaleFencingTokenException if a newer holder of one
	 * of the locks committed first (the transaction was rolled back)
	 */
	public <T> @Nullable T execute(Handle handle, TransactionDefinition definition, TransactionCallback<T> action) {
		String description = "Transaction fenced by " + handle.handles()
			.stream()
			.map(LockHandle::path)
			.map((path) -> "'" + path + "'")
			.collect(Collectors.joining(", "));
		return new TransactionTemplate(this.transactionManager, definition).execute((status) -> {
			try (TransactionFencing.FencedCall call = this.fencing.enter(description, handle)) {
				return action.doInTransaction(status);
			}
		});
	}

}
