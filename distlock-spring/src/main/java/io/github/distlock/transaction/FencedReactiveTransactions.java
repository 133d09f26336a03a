package io.github.distlock.transaction;

import java.util.stream.Collectors;

import reactor.core.publisher.Flux;

import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.reactive.TransactionCallback;

import io.github.distlock.core.Handle;
import io.github.distlock.core.LockHandle;

/**
 * Runs reactive transactions fenced by a lock held through the programmatic API, the
 * reactive counterpart of {@link FencedTransactions}: the transaction commits only if no
 * holder of the handle's locks with a newer fencing token committed before it, else the
 * returned {@code Flux} fails with a
 * {@link io.github.distlock.core.StaleFencingTokenException} and the transaction is
 * rolled back. A multi-lock's handle fences every path. Keep the lock held until the
 * returned publisher has ended.
 *
 * <pre class="code">
 * Mono.usingWhen(Mono.fromFuture(() -&gt; locks.mutex("stock/" + sku).acquireAsync(wait)),
 *         (handle) -&gt; fencedTransactions.execute(handle, (status) -&gt; repository.save(stock)).then(),
 *         (handle) -&gt; Mono.fromRunnable(handle::close));
 * </pre>
 */
public final class FencedReactiveTransactions {

	private final R2dbcTransactionFencing fencing;

	/**
	 * Create the helper.
	 * @param fencing the fencing of the application's reactive transactions
	 */
	public FencedReactiveTransactions(R2dbcTransactionFencing fencing) {
		this.fencing = fencing;
	}

	/**
	 * Run a callback in a new reactive transaction (or the pipeline's running one) fenced
	 * by a handle.
	 * @param handle the held lock or locks
	 * @param action the transaction's work
	 * @return the action's elements
	 */
	public <T> Flux<T> execute(Handle handle, TransactionCallback<T> action) {
		return execute(handle, TransactionDefinition.withDefaults(), action);
	}

	/**
	 * Run a callback in a reactive transaction of the given definition fenced by a
	 * handle.
	 * @param handle the held lock or locks
	 * @param definition the transaction's propagation, isolation, timeout
	 * @param action the transaction's work
	 * @return the action's elements
	 */
	public <T> Flux<T> execute(Handle handle, TransactionDefinition definition, TransactionCallback<T> action) {
		String description = "Reactive transaction fenced by " + handle.handles()
			.stream()
			.map(LockHandle::path)
			.map((path) -> "'" + path + "'")
			.collect(Collectors.joining(", "));
		return this.fencing.execute(description, handle, definition, action);
	}

}
