package io.github.distlock.sample;

/**
 * Fewer items are left than a purchase asked for.
 */
public class OutOfStockException extends RuntimeException {

	private final int available;

	public OutOfStockException(String sku, int requested, int available) {
		super("Only " + available + " of '" + sku + "' left, " + requested + " requested");
		this.available = available;
	}

	public int getAvailable() {
		return this.available;
	}

}
