package io.github.distlock.sample;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import io.github.distlock.annotation.ReadLock;
import io.github.distlock.annotation.WriteLock;

/**
 * Prices of the shop, under a read/write lock per SKU: any number of instances read a
 * price at once, a price change waits for the readers to finish and keeps new ones out
 * until it committed.
 */
@Service
public class CatalogService {

	private final StockStore stock;

	public CatalogService(StockStore stock) {
		this.stock = stock;
	}

	/**
	 * Look a price up, sharing the SKU's lock with other readers.
	 * @param sku the stock keeping unit
	 * @return the price
	 * @throws UnknownSkuException if there is no such SKU
	 */
	@ReadLock("catalog/#{#sku}")
	public Price price(String sku) {
		return new Price(sku, this.stock.priceCents(sku));
	}

	/**
	 * Change a price, alone on the SKU's lock; gives up after two seconds of waiting for
	 * readers.
	 * @param sku the stock keeping unit
	 * @param priceCents the new price in cents
	 * @return the new price
	 * @throws UnknownSkuException if there is no such SKU
	 */
	@WriteLock(value = "catalog/#{#sku}", waitTime = "2s")
	@Transactional
	public Price changePrice(String sku, long priceCents) {
		if (priceCents < 0) {
			throw new IllegalArgumentException("A price cannot be negative, was " + priceCents);
		}
		this.stock.writePrice(sku, priceCents);
		return new Price(sku, priceCents);
	}

	/**
	 * Price of one SKU.
	 *
	 * @param sku the stock keeping unit
	 * @param priceCents its price in cents
	 */
	public record Price(String sku, long priceCents) {
	}

}
