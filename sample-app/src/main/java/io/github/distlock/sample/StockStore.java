package io.github.distlock.sample;

import java.util.List;
import java.util.Optional;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code stock} table. Its writers write in fenced transactions (distlock's
 * {@code fenced = true}, or {@code FencedTransactions}): distlock's fence table keeps the
 * newest fencing token that committed per lock, and a transaction of a holder whose lock
 * was lost and taken by someone else meanwhile rolls back instead of overwriting newer
 * stock.
 */
@Repository
public class StockStore {

	private final JdbcClient jdbc;

	public StockStore(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	/**
	 * Insert a SKU unless it exists (several instances may seed the same database).
	 * @param sku the stock keeping unit
	 * @param available its initial stock
	 * @param priceCents its price
	 * @return whether it was inserted
	 */
	public boolean insertIfAbsent(String sku, int available, long priceCents) {
		try {
			return this.jdbc
				.sql("insert into stock (sku, available, price_cents) select ?, ?, ? where not exists "
						+ "(select 1 from stock where sku = ?)")
				.params(sku, available, priceCents, sku)
				.update() == 1;
		}
		catch (DuplicateKeyException ex) {
			return false;
		}
	}

	/**
	 * Read how many items of a SKU are left.
	 * @param sku the stock keeping unit
	 * @return the stock, 0 for an unknown SKU
	 */
	public int available(String sku) {
		return this.jdbc.sql("select available from stock where sku = ?")
			.param(sku)
			.query(Integer.class)
			.optional()
			.orElse(0);
	}

	/**
	 * Read the price of a SKU.
	 * @param sku the stock keeping unit
	 * @return the price in cents
	 * @throws UnknownSkuException if there is no such SKU
	 */
	public long priceCents(String sku) {
		return priceCentsIfPresent(sku).orElseThrow(() -> new UnknownSkuException(sku));
	}

	/**
	 * Read the price of a SKU, if it exists.
	 * @param sku the stock keeping unit
	 * @return the price in cents, empty for an unknown SKU
	 */
	public Optional<Long> priceCentsIfPresent(String sku) {
		return this.jdbc.sql("select price_cents from stock where sku = ?").param(sku).query(Long.class).optional();
	}

	/**
	 * Return the SKUs that have fewer items than given.
	 * @param below the threshold
	 * @return the SKUs, sorted
	 */
	public List<String> skusBelow(int below) {
		return this.jdbc.sql("select sku from stock where available < ? order by sku")
			.param(below)
			.query(String.class)
			.list();
	}

	/**
	 * Write the stock of a SKU.
	 * @param sku the stock keeping unit
	 * @param available the new stock
	 */
	public void writeAvailable(String sku, int available) {
		this.jdbc.sql("update stock set available = ? where sku = ?").params(available, sku).update();
	}

	/**
	 * Write the price of a SKU.
	 * @param sku the stock keeping unit
	 * @param priceCents the new price
	 * @throws UnknownSkuException if there is no such SKU
	 */
	public void writePrice(String sku, long priceCents) {
		if (this.jdbc.sql("update stock set price_cents = ? where sku = ?").params(priceCents, sku).update() == 0) {
			throw new UnknownSkuException(sku);
		}
	}

}
