package io.github.distlock.sample;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionCallback;
import org.springframework.transaction.support.TransactionTemplate;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.CompletionStageLockContext;
import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.transaction.FencedTransactions;

/**
 * Deliveries from suppliers, under the same lock as purchases of the SKU, as a
 * {@code CompletableFuture}: the lock is requested without blocking the request thread,
 * the method runs once it is held (on the application's task executor), and the lock is
 * released when the returned future completes, after the stock was written.
 * <p>
 * {@code fenced = true} does not apply to asynchronous methods (their transaction would
 * run on another thread), so the work writes in a transaction that
 * {@link FencedTransactions} fences by the call's lock.
 */
@Service
public class DeliveryService {

	private final StockStore stock;

	private final ConcurrencyProbe probe;

	private final ObjectProvider<FencedTransactions> fencedTransactions;

	private final TransactionTemplate transaction;

	private final Executor executor;

	public DeliveryService(StockStore stock, ConcurrencyProbe probe,
			ObjectProvider<FencedTransactions> fencedTransactions, TransactionTemplate transaction,
			@Qualifier("applicationTaskExecutor") Executor executor) {
		this.stock = stock;
		this.probe = probe;
		this.fencedTransactions = fencedTransactions;
		this.transaction = transaction;
		this.executor = executor;
	}

	/**
	 * Receive a delivery of one SKU.
	 * @param sku the stock keeping unit
	 * @param quantity how many items arrived
	 * @return the delivery, once the stock is written
	 */
	@DistributedLock("inventory/#{#sku}")
	public CompletableFuture<Delivery> receive(String sku, int quantity) {
		if (quantity < 1) {
			return CompletableFuture
				.failedFuture(new IllegalArgumentException("A delivery has at least 1 item, not " + quantity));
		}
		// The lock belongs to this call, not to a thread: take its handle here for the
		// work. No handle when locking is switched off.
		Optional<LockHandle> lock = CompletionStageLockContext.current()
			.locks()
			.stream()
			.filter((handle) -> handle.path().equals(LockPath.of("inventory", sku)))
			.findFirst();
		return CompletableFuture.supplyAsync(() -> this.probe.writing(sku, () -> {
			TransactionCallback<Delivery> write = (status) -> {
				int available = this.stock.available(sku) + quantity;
				this.stock.writeAvailable(sku, available);
				return new Delivery(sku, quantity, available);
			};
			return lock.isPresent() ? this.fencedTransactions.getObject().execute(lock.get(), write)
					: this.transaction.execute(write);
		}), this.executor);
	}

	/**
	 * A received delivery.
	 *
	 * @param sku the stock keeping unit
	 * @param received how many items arrived
	 * @param available the stock afterwards
	 */
	public record Delivery(String sku, int received, int available) {
	}

}
