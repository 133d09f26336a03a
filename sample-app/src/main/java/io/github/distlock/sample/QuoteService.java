package io.github.distlock.sample;

import reactor.core.publisher.Mono;

import org.springframework.stereotype.Service;

import io.github.distlock.annotation.ReadLock;

/**
 * Price quotes, built reactively under the read lock of the SKU's price: quotes share the
 * lock with price lookups, and a price change waits until every quote's {@code Mono} has
 * completed, so a quote never mixes two prices. The lock is taken when the {@code Mono}
 * is subscribed to (by Spring MVC, when the request is handled), without blocking the
 * request thread, and released when the {@code Mono} ends.
 */
@Service
public class QuoteService {

	private final StockStore stock;

	public QuoteService(StockStore stock) {
		this.stock = stock;
	}

	/**
	 * Quote a quantity of one SKU.
	 * @param sku the stock keeping unit
	 * @param quantity how many items
	 * @return the quote; an {@link UnknownSkuException} error if there is no such SKU
	 */
	@ReadLock(value = "catalog/#{#sku}", waitTime = "2s")
	public Mono<Quote> quote(String sku, int quantity) {
		if (quantity < 1) {
			return Mono.error(new IllegalArgumentException("A quote is for at least 1 item, not " + quantity));
		}
		// Runs once the lock is held, on the application's task executor: a blocking JDBC
		// read is fine there (it would not be on a WebFlux event loop).
		return Mono.fromCallable(() -> this.stock.priceCents(sku))
			.map((priceCents) -> new Quote(sku, quantity, priceCents * quantity));
	}

	/**
	 * A price quote.
	 *
	 * @param sku the stock keeping unit
	 * @param quantity how many items
	 * @param totalCents the price of them all, in cents
	 */
	public record Quote(String sku, int quantity, long totalCents) {
	}

}
