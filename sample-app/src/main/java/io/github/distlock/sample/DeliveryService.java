package io.github.distlock.sample;

import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.stereotype.Service;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.CompletionStageLockContext;

/**
 * Deliveries from suppliers, under the same lock as purchases of the SKU, as a
 * {@code CompletableFuture}: the lock is requested without blocking the request thread,
 * the method runs once it is held (on the application's task executor), and the lock is
 * released when the returned future completes, after the stock was written.
 */
@Service
public class DeliveryService {

	private final StockStore stock;

	private final ConcurrencyProbe probe;

	private final Executor executor;

	public DeliveryService(StockStore stock, ConcurrencyProbe probe,
			@Qualifier("applicationTaskExecutor") Executor executor) {
		this.stock = stock;
		this.probe = probe;
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
		// The lock belongs to this call, not to a thread: read its token here and hand it
		// to the work.
		OptionalLong token = Fencing.tokenOf(CompletionStageLockContext.current(), Fencing.inventory(sku));
		return CompletableFuture.supplyAsync(() -> this.probe.writing(sku, () -> {
			int available = this.stock.available(sku) + quantity;
			this.stock.writeAvailable(sku, available, token);
			return new Delivery(sku, quantity, available);
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
