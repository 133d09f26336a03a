package io.github.distlock.sample;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * Inserts the SKUs of {@code shop.initial-stock} that the database does not have yet;
 * several instances sharing one database seed it once.
 */
@Component
class StockSeeder implements ApplicationRunner {

	private final StockStore stock;

	private final ShopProperties properties;

	StockSeeder(StockStore stock, ShopProperties properties) {
		this.stock = stock;
		this.properties = properties;
	}

	@Override
	public void run(ApplicationArguments args) {
		this.properties.initialStock()
			.forEach(
					(sku, available) -> this.stock.insertIfAbsent(sku, available, this.properties.initialPriceCents()));
	}

}
