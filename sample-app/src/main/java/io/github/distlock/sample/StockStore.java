package io.github.distlock.sample;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The {@code stock} table. Writes carry the fencing token of the lock under which their
 * writer read the row, and the table keeps the highest token that wrote each row: a write
 * with an older token comes from a holder whose lock was lost and taken by someone else
 * meanwhile, and is rejected.
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
	 * @param fencingToken token of the lock held on the SKU; empty when locking is
	 * switched off
	 * @throws StaleFencingTokenException if a holder with a newer token has written the
	 * row
	 */
	public void writeAvailable(String sku, int available, OptionalLong fencingToken) {
		if (fencingToken.isEmpty()) {
			this.jdbc.sql("update stock set available = ? where sku = ?").params(available, sku).update();
			return;
		}
		long token = fencingToken.getAsLong();
		// "<=": the same holder may write twice under one acquisition.
		int updated = this.jdbc.sql("update stock set available = ?, fence = ? where sku = ? and fence <= ?")
			.params(available, token, sku, token)
			.update();
		if (updated == 0) {
			throw new StaleFencingTokenException(sku, token, fence(sku));
		}
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

	/**
	 * Return the highest fencing token that wrote a SKU's stock.
	 * @param sku the stock keeping unit
	 * @return the token, 0 if none did
	 */
	public long fence(String sku) {
		return this.jdbc.sql("select fence from stock where sku = ?")
			.param(sku)
			.query(Long.class)
			.optional()
			.orElse(0L);
	}

}
