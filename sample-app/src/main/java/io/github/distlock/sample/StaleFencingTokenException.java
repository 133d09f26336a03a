package io.github.distlock.sample;

/**
 * A write carried the fencing token of a lock that has since been taken by another
 * holder, who already wrote: the write is rejected so that it cannot overwrite newer
 * data.
 */
public class StaleFencingTokenException extends RuntimeException {

	public StaleFencingTokenException(String sku, long token, long fence) {
		super("Write to '" + sku + "' with fencing token " + token + " rejected: token " + fence
				+ " has written since");
	}

}
