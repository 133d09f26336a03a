package io.github.distlock.core;

/**
 * An acquisition was refused at once because this instance is draining: it takes no new
 * locks until the drain ends.
 */
public class LocksDrainingException extends LockAcquisitionException {

	public LocksDrainingException(String message) {
		super(message, null);
	}

}
