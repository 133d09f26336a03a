package io.github.distlock.sample;

import java.time.Duration;
import java.util.OptionalLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.Locks;

/**
 * Stock-takes, with distlock's programmatic API: after counting the shelf, the counted
 * number replaces the stock, under the same lock as purchases and with that lock's
 * fencing token.
 * <p>
 * {@link Locks} comes through an {@link ObjectProvider}, so the shop also runs with
 * {@code distlock.enabled=false}, without locks (the cluster demo's second run).
 */
@Service
public class StockCountService {

	private static final Log logger = LogFactory.getLog(StockCountService.class);

	private final ObjectProvider<Locks> locks;

	private final StockStore stock;

	private final TransactionTemplate transaction;

	public StockCountService(ObjectProvider<Locks> locks, StockStore stock, TransactionTemplate transaction) {
		this.locks = locks;
		this.stock = stock;
		this.transaction = transaction;
	}

	/**
	 * Record the result of counting a SKU's shelf.
	 * @param sku the stock keeping unit
	 * @param counted how many items are there
	 * @return the new stock
	 * @throws io.github.distlock.core.LockTimeoutException if the lock was not acquired
	 * within {@code distlock.lock.wait-time}
	 */
	public int recordCount(String sku, int counted) {
		if (counted < 0) {
			throw new IllegalArgumentException("A count cannot be negative, was " + counted);
		}
		if (this.stock.priceCentsIfPresent(sku).isEmpty()) {
			throw new UnknownSkuException(sku);
		}
		Locks locks = this.locks.getIfAvailable();
		if (locks == null) {
			logger.debug("distlock is switched off: recording the count without a lock");
			write(sku, counted, OptionalLong.empty());
			return counted;
		}
		Duration waitTime = locks.defaultWaitTime();
		try (LockHandle lock = locks.mutex(Fencing.inventory(sku)).acquire(waitTime)) {
			// The transaction runs inside the lock: it commits before the lock
			// is released.
			write(sku, counted, OptionalLong.of(lock.fencingToken()));
			return counted;
		}
	}

	private void write(String sku, int counted, OptionalLong fencingToken) {
		this.transaction.executeWithoutResult((status) -> this.stock.writeAvailable(sku, counted, fencingToken));
	}

}
