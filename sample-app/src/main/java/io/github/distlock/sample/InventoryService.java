package io.github.distlock.sample;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.github.distlock.annotation.DistributedLock;

/**
 * Stock of the shop. A purchase reads the stock, thinks for a moment and writes it back,
 * as business code with more to decide than a SQL {@code available - 1} does: without a
 * lock around it, two concurrent purchases of the last item would both succeed.
 */
@Service
public class InventoryService {

	private final StockStore stock;

	private final OrderStore orders;

	private final ConcurrencyProbe probe;

	private final ShopProperties properties;

	public InventoryService(StockStore stock, OrderStore orders, ConcurrencyProbe probe, ShopProperties properties) {
		this.stock = stock;
		this.orders = orders;
		this.probe = probe;
		this.properties = properties;
	}

	/**
	 * Buy some items of one SKU, under the lock of that SKU: one purchase of a SKU at a
	 * time, across all instances. The lock wraps the transaction (distlock's advisor runs
	 * before the transaction's), so the next holder reads committed stock. The
	 * transaction is fenced: it commits only if no newer holder of the lock committed
	 * first (a holder whose lock was lost during a pause and taken by another), else it
	 * rolls back with {@code StaleFencingTokenException}.
	 * @param sku the stock keeping unit
	 * @param quantity how many to buy
	 * @return the purchase
	 * @throws OutOfStockException if fewer items are left
	 */
	@DistributedLock(value = "inventory/#{#sku}", fenced = true)
	@Transactional
	public Purchase purchase(String sku, int quantity) {
		return this.probe.writing(sku, () -> {
			int available = this.stock.available(sku);
			think();
			if (available < quantity) {
				throw new OutOfStockException(sku, quantity, available);
			}
			this.stock.writeAvailable(sku, available - quantity);
			long order = this.orders.insert(this.properties.instanceId(), List.of(new OrderLine(sku, quantity)));
			return new Purchase(order, sku, quantity, available - quantity);
		});
	}

	/**
	 * Refill a SKU, under the same lock as purchases, fenced as they are.
	 * @param sku the stock keeping unit
	 * @param upTo the stock afterwards
	 * @return how many items were added
	 */
	@DistributedLock(value = "inventory/#{#sku}", fenced = true)
	@Transactional
	public int refill(String sku, int upTo) {
		return this.probe.writing(sku, () -> {
			int available = this.stock.available(sku);
			if (available >= upTo) {
				return 0;
			}
			this.stock.writeAvailable(sku, upTo);
			return upTo - available;
		});
	}

	/**
	 * Return how many items of a SKU are left.
	 * @param sku the stock keeping unit
	 * @return the stock
	 */
	public int available(String sku) {
		return this.stock.available(sku);
	}

	private void think() {
		Duration thinkTime = this.properties.thinkTime();
		if (!thinkTime.isZero()) {
			LockSupport.parkNanos(thinkTime.toNanos());
		}
	}

	/**
	 * A completed purchase.
	 *
	 * @param order the order's id
	 * @param sku the stock keeping unit
	 * @param quantity how many were bought
	 * @param remaining how many are left
	 */
	public record Purchase(long order, String sku, int quantity, int remaining) {
	}

}
