package io.github.distlock.sample;

import java.util.Map;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import io.github.distlock.core.LockTimeoutException;

/**
 * REST API of the sample shop.
 */
@RestController
@RequestMapping("/api/inventory")
class InventoryController {

	private final InventoryService inventory;

	InventoryController(InventoryService inventory) {
		this.inventory = inventory;
	}

	@PostMapping("/{sku}/purchase")
	InventoryService.Purchase purchase(@PathVariable String sku, @RequestParam(defaultValue = "1") int quantity) {
		return this.inventory.purchase(sku, quantity);
	}

	@GetMapping("/{sku}")
	Stock stock(@PathVariable String sku) {
		return new Stock(sku, this.inventory.available(sku), this.inventory.mostConcurrentPurchases(sku));
	}

	@ExceptionHandler
	ResponseEntity<Map<String, String>> outOfStock(OutOfStockException ex) {
		return ResponseEntity.status(HttpStatus.CONFLICT).body(Map.of("error", ex.getMessage()));
	}

	@ExceptionHandler
	ResponseEntity<Map<String, String>> lockTimeout(LockTimeoutException ex) {
		return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body(Map.of("error", ex.getMessage()));
	}

	/**
	 * Stock of one SKU.
	 *
	 * @param sku the stock keeping unit
	 * @param available how many items are left
	 * @param mostConcurrentPurchases most purchases of this SKU ever running at once in
	 * this instance
	 */
	record Stock(String sku, int available, int mostConcurrentPurchases) {
	}

}
