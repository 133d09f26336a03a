package io.github.distlock.sample;

/**
 * One line of an order.
 *
 * @param sku the stock keeping unit
 * @param quantity how many items
 */
public record OrderLine(String sku, int quantity) {

	public OrderLine {
		if (sku == null || sku.isBlank()) {
			throw new IllegalArgumentException("An order line needs a SKU");
		}
		if (quantity < 1) {
			throw new IllegalArgumentException("Quantity of '" + sku + "' must be at least 1, was " + quantity);
		}
	}

}
