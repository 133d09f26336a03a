package io.github.distlock.sample;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.springframework.stereotype.Service;

import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;

/**
 * Stock of a small shop. A purchase reads the stock, thinks for a moment and writes it
 * back: without a lock around it, two concurrent purchases of the last item would both
 * succeed.
 */
@Service
public class InventoryService {

	private static final long THINKING_NANOS = Duration.ofMillis(2).toNanos();

	private final Map<String, Integer> stock = new ConcurrentHashMap<>();

	private final AtomicInteger inside = new AtomicInteger();

	private final AtomicInteger mostInside = new AtomicInteger();

	private final Locks locks;

	public InventoryService(InventoryProperties properties, Locks locks) {
		this.stock.putAll(properties.initialStock());
		this.locks = locks;
	}

	/**
	 * Buy some items, under the lock of their SKU.
	 * @param sku the stock keeping unit
	 * @param quantity how many to buy
	 * @return the purchase
	 * @throws OutOfStockException if fewer items are left
	 */
	public Purchase purchase(String sku, int quantity) throws Exception {
		return this.locks.mutex(LockPath.of("inventory", sku))
			.execute(this.locks.defaultWaitTime(), () -> purchaseUnlocked(sku, quantity));
	}

	private Purchase purchaseUnlocked(String sku, int quantity) {
		int now = this.inside.incrementAndGet();
		this.mostInside.accumulateAndGet(now, Math::max);
		try {
			int available = this.stock.getOrDefault(sku, 0);
			// The window in which an unlocked purchase races another one.
			LockSupport.parkNanos(THINKING_NANOS);
			if (available < quantity) {
				throw new OutOfStockException(sku, quantity, available);
			}
			this.stock.put(sku, available - quantity);
			return new Purchase(sku, quantity, available - quantity);
		}
		finally {
			this.inside.decrementAndGet();
		}
	}

	/**
	 * Return how many items of a SKU are left.
	 * @param sku the stock keeping unit
	 * @return the stock
	 */
	public int available(String sku) {
		return this.stock.getOrDefault(sku, 0);
	}

	/**
	 * Return the largest number of purchases that were ever running at the same time in
	 * this instance; 1 while the lock works.
	 * @return the most concurrent purchases seen
	 */
	public int mostConcurrentPurchases() {
		return this.mostInside.get();
	}

	/**
	 * A completed purchase.
	 *
	 * @param sku the stock keeping unit
	 * @param quantity how many were bought
	 * @param remaining how many are left
	 */
	public record Purchase(String sku, int quantity, int remaining) {
	}

}
