package io.github.distlock.sample;

/**
 * No such SKU.
 */
public class UnknownSkuException extends RuntimeException {

	public UnknownSkuException(String sku) {
		super("Unknown SKU '" + sku + "'");
	}

}
