package io.github.distlock.sample;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.Locks;
import io.github.distlock.core.MultiLock;
import io.github.distlock.core.MultiLockHandle;

/**
 * Orders of several SKUs, all or nothing, with distlock's programmatic API: the locks of
 * all SKUs of an order are taken together ({@link Locks#multi}: in sorted order, so two
 * orders sharing SKUs never deadlock, within one wait time), then the stock of each SKU
 * is written with the fencing token of its own lock.
 */
@Service
public class OrderService {

	private static final Log logger = LogFactory.getLog(OrderService.class);

	private final ObjectProvider<Locks> locks;

	private final StockStore stock;

	private final OrderStore orders;

	private final ConcurrencyProbe probe;

	private final TransactionTemplate transaction;

	private final ShopProperties properties;

	public OrderService(ObjectProvider<Locks> locks, StockStore stock, OrderStore orders, ConcurrencyProbe probe,
			TransactionTemplate transaction, ShopProperties properties) {
		this.locks = locks;
		this.stock = stock;
		this.orders = orders;
		this.probe = probe;
		this.transaction = transaction;
		this.properties = properties;
	}

	/**
	 * Place an order: every line is served or none.
	 * @param lines the order's lines; lines of the same SKU are added up
	 * @return the order
	 * @throws OutOfStockException if a SKU has fewer items left than ordered
	 * @throws io.github.distlock.core.LockTimeoutException if the locks of all SKUs were
	 * not acquired within {@code distlock.lock.wait-time}
	 */
	public Order place(List<OrderLine> lines) {
		Map<String, Integer> quantities = new TreeMap<>();
		lines.forEach((line) -> quantities.merge(line.sku(), line.quantity(), Integer::sum));
		if (quantities.isEmpty()) {
			throw new IllegalArgumentException("An order needs at least one line");
		}
		Locks locks = this.locks.getIfAvailable();
		if (locks == null) {
			logger.debug("distlock is switched off: placing the order without locks");
			return this.transaction.execute((status) -> write(quantities, Map.of()));
		}
		MultiLock all = locks
			.multi(quantities.keySet().stream().map((sku) -> locks.mutex(Fencing.inventory(sku))).toList());
		try (MultiLockHandle held = all.acquire(locks.defaultWaitTime())) {
			Map<String, Long> tokens = new TreeMap<>();
			for (LockHandle handle : held.handles()) {
				tokens.put(handle.path().value(), handle.fencingToken());
			}
			// The transaction runs inside the locks: it commits before they are released.
			return this.transaction.execute((status) -> write(quantities, tokens));
		}
	}

	private Order write(Map<String, Integer> quantities, Map<String, Long> tokens) {
		List<OrderLine> lines = new ArrayList<>();
		for (Map.Entry<String, Integer> entry : quantities.entrySet()) {
			String sku = entry.getKey();
			int quantity = entry.getValue();
			this.probe.writing(sku, () -> {
				int available = this.stock.available(sku);
				if (available < quantity) {
					throw new OutOfStockException(sku, quantity, available);
				}
				Long token = tokens.get(Fencing.inventory(sku).value());
				this.stock.writeAvailable(sku, available - quantity,
						(token != null) ? OptionalLong.of(token) : OptionalLong.empty());
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
