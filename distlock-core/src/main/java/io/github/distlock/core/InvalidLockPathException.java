package io.github.distlock.core;

/**
 * A lock path, or a value meant to become one segment of it, cannot be used: it is null,
 * empty, too long, not valid Unicode, or a literal path that is not a well-formed
 * relative path.
 */
public class InvalidLockPathException extends DistributedLockException {

	public InvalidLockPathException(String message) {
		super(message);
	}

}
