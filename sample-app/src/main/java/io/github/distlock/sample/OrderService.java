package io.github.distlock.sample;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.github.distlock.annotation.DistributedLock;

/**
 * Orders of several SKUs, all or nothing. The path template's part gives a collection,
 * the order's SKUs, so {@code @DistributedLock} takes one lock per SKU, the same locks as
 * single purchases: all of them within one wait time, always in sorted order (two orders
 * sharing SKUs never deadlock), released in reverse order after the transaction
 * committed. The transaction is fenced by every one of the locks: it commits only if no
 * newer holder of any of them committed first.
 */
@Service
public class OrderService {

	private final StockStore stock;

	private final OrderStore orders;

	private final ConcurrencyProbe probe;

	private final ShopProperties properties;

	public OrderService(StockStore stock, OrderStore orders, ConcurrencyProbe probe, ShopProperties properties) {
		this.stock = stock;
		this.orders = orders;
		this.probe = probe;
		this.properties = properties;
	}

	/**
	 * Place an order: every line is served or none.
	 * @param order the order
	 * @return the placed order
	 * @throws OutOfStockException if a SKU has fewer items left than ordered
	 * @throws io.github.distlock.core.LockTimeoutException if the locks of all SKUs were
	 * not acquired within {@code distlock.lock.wait-time}
	 */
	@DistributedLock(value = "inventory/#{#order.skus()}", fenced = true)
	@Transactional
	public Order place(OrderRequest order) {
		List<OrderLine> lines = new ArrayList<>();
		for (Map.Entry<String, Integer> entry : order.quantities().entrySet()) {
			String sku = entry.getKey();
			int quantity = entry.getValue();
			this.probe.writing(sku, () -> {
				int available = this.stock.available(sku);
				if (available < quantity) {
					// Rolls back the lines written so far.
					throw new OutOfStockException(sku, quantity, available);
				}
				this.stock.writeAvailable(sku, available - quantity);
				return null;
			});
			lines.add(new OrderLine(sku, quantity));
		}
		return new Order(this.orders.insert(this.properties.instanceId(), lines), lines);
	}

	/**
	 * A placed order.
	 *
	 * @param id the order's id
	 * @param lines its lines, one per SKU, sorted by SKU
	 */
	public record Order(long id, List<OrderLine> lines) {
	}

}
