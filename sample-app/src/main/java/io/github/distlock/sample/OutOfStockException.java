package io.github.distlock.sample;

/**
 * Fewer items are left than a purchase asked for.
 */
public class OutOfStockException extends RuntimeException {

	public OutOfStockException(String sku, int requested, int available) {
		super("Only " + available + " of '" + sku + "' left, " + requested + " requested");
	}

}
