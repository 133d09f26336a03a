package io.github.distlock.sample;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

import io.github.distlock.core.LockHandle;
import io.github.distlock.core.LockPath;
import io.github.distlock.core.Locks;
import io.github.distlock.transaction.FencedTransactions;

/**
 * Stock-takes, with distlock's programmatic API: after counting the shelf, the counted
 * number replaces the stock, under the same lock as purchases, in a transaction fenced by
 * that lock ({@link FencedTransactions}): it commits only if no newer holder of the lock
 * committed first.
 * <p>
 * {@link Locks} and {@link FencedTransactions} come through an {@link ObjectProvider}, so
 * the shop also runs with {@code distlock.enabled=false}, without locks (the cluster
 * demo's second run).
 */
@Service
public class StockCountService {

	private static final Log logger = LogFactory.getLog(StockCountService.class);

	private final ObjectProvider<Locks> locks;

	private final StockStore stock;

	private final ObjectProvider<FencedTransactions> fencedTransactions;

	private final TransactionTemplate transaction;

	public StockCountService(ObjectProvider<Locks> locks, StockStore stock,
			ObjectProvider<FencedTransactions> fencedTransactions, TransactionTemplate transaction) {
		this.locks = locks;
		this.stock = stock;
		this.fencedTransactions = fencedTransactions;
		this.transaction = transaction;
	}

	/**
	 * Record the result of counting a SKU's shelf.
	 * @param sku the stock keeping unit
	 * @param counted how many items are there
	 * @return the new stock
	 * @throws io.github.distlock.core.LockTimeoutException if the lock was not acquired
	 * within {@code distlock.lock.wait-time}
	 * @throws io.github.distlock.core.StaleFencingTokenException if a newer holder of the
	 * lock committed first (this holder lost the lock during a pause)
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
			this.transaction.executeWithoutResult((status) -> this.stock.writeAvailable(sku, counted));
			return counted;
		}
		Duration waitTime = locks.defaultWaitTime();
		try (LockHandle lock = locks.mutex(LockPath.of("inventory", sku)).acquire(waitTime)) {
			// The transaction runs inside the lock: it commits before the lock
			// is released.
			this.fencedTransactions.getObject().execute(lock, (status) -> {
				this.stock.writeAvailable(sku, counted);
				return null;
			});
			return counted;
		}
	}

}
