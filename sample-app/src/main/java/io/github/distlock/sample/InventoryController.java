package io.github.distlock.sample;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import reactor.core.publisher.Mono;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * REST API of the sample shop.
 */
@RestController
@RequestMapping("/api")
class InventoryController {

	private final InventoryService inventory;

	private final OrderService orders;

	private final ConcurrencyProbe probe;

	private final RestockJob restock;

	private final CatalogService catalog;

	private final ReportService reports;

	private final StockCountService counts;

	private final QuoteService quotes;

	private final DeliveryService deliveries;

	InventoryController(InventoryService inventory, OrderService orders, ConcurrencyProbe probe, RestockJob restock,
			CatalogService catalog, ReportService reports, StockCountService counts, QuoteService quotes,
			DeliveryService deliveries) {
		this.inventory = inventory;
		this.orders = orders;
		this.probe = probe;
		this.restock = restock;
		this.catalog = catalog;
		this.reports = reports;
		this.counts = counts;
		this.quotes = quotes;
		this.deliveries = deliveries;
	}

	@PostMapping("/inventory/{sku}/purchase")
	InventoryService.Purchase purchase(@PathVariable String sku, @RequestParam(defaultValue = "1") int quantity) {
		return this.inventory.purchase(sku, quantity);
	}

	@GetMapping("/inventory/{sku}")
	Stock stock(@PathVariable String sku) {
		return new Stock(sku, this.inventory.available(sku), this.probe.mostConcurrent(sku));
	}

	@PutMapping("/inventory/{sku}")
	Stock count(@PathVariable String sku, @RequestParam int available) {
		this.counts.recordCount(sku, available);
		return stock(sku);
	}

	@PostMapping("/inventory/{sku}/deliveries")
	CompletableFuture<DeliveryService.Delivery> deliver(@PathVariable String sku, @RequestParam int quantity) {
		return this.deliveries.receive(sku, quantity);
	}

	@PostMapping("/orders")
	OrderService.Order order(@RequestBody OrderRequest order) {
		return this.orders.place(order);
	}

	@GetMapping("/catalog/{sku}")
	CatalogService.Price price(@PathVariable String sku) {
		return this.catalog.price(sku);
	}

	@GetMapping("/catalog/{sku}/quote")
	Mono<QuoteService.Quote> quote(@PathVariable String sku, @RequestParam(defaultValue = "1") int quantity) {
		return this.quotes.quote(sku, quantity);
	}

	@PutMapping("/catalog/{sku}")
	CatalogService.Price changePrice(@PathVariable String sku, @RequestParam long priceCents) {
		return this.catalog.changePrice(sku, priceCents);
	}

	@GetMapping("/reports/sales")
	ReportService.SalesReport salesReport() {
		return this.reports.sales();
	}

	@GetMapping("/restock/runs")
	List<RestockJob.Run> restockRuns(@RequestParam(defaultValue = "10") int limit) {
		return this.restock.runs(limit);
	}

	/**
	 * Stock of one SKU.
	 *
	 * @param sku the stock keeping unit
	 * @param available how many items are left
	 * @param mostConcurrentPurchases most writers of this SKU's stock ever running at
	 * once in this instance: 1 while the locks work
	 */
	record Stock(String sku, int available, int mostConcurrentPurchases) {
	}

}
