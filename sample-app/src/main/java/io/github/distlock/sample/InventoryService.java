package io.github.distlock.sample;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.springframework.stereotype.Service;

import io.github.distlock.annotation.DistributedLock;

/**
 * Stock of a small shop. A purchase reads the stock, thinks for a moment and writes it
 * back: without a lock around it, two concurrent purchases of the last item would both
 * succeed.
 */
@Service
public class InventoryService {

	private static final long THINKING_NANOS = Duration.ofMillis(2).toNanos();

	private final Map<String, Integer> stock = new ConcurrentHashMap<>();

	private final Map<String, Occupancy> occupancy = new ConcurrentHashMap<>();

	public InventoryService(InventoryProperties properties) {
		this.stock.putAll(properties.initialStock());
	}

	/**
	 * Buy some items, under the lock of their SKU: one purchase of a SKU at a time,
	 * across all instances of the application.
	 * @param sku the stock keeping unit
	 * @param quantity how many to buy
	 * @return the purchase
	 * @throws OutOfStockException if fewer items are left
	 */
	@DistributedLock("inventory/#{#sku}")
	public Purchase purchase(String sku, int quantity) {
		Occupancy occupancy = this.occupancy.computeIfAbsent(sku, (key) -> new Occupancy());
		occupancy.enter();
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
			occupancy.leave();
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
	 * Return the largest number of purchases of one SKU that were ever running at the
	 * same time in this instance; at most 1 while the lock works.
	 * @param sku the stock keeping unit
	 * @return the most concurrent purchases seen
	 */
	public int mostConcurrentPurchases(String sku) {
		Occupancy occupancy = this.occupancy.get(sku);
		return (occupancy != null) ? occupancy.most.get() : 0;
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

	private static final class Occupancy {

		private final AtomicInteger inside = new AtomicInteger();

		private final AtomicInteger most = new AtomicInteger();

		void enter() {
			this.most.accumulateAndGet(this.inside.incrementAndGet(), Math::max);
		}

		void leave() {
			this.inside.decrementAndGet();
		}

	}

}
