package io.github.distlock.core;

/**
 * {@link LockContext} was asked about a lock while its holder holds none: the call runs
 * outside every locked method and open handle (a unit test without ZooKeeper, a method
 * called without its annotation taking effect, such as a self-invocation). Nothing was
 * lost; a {@link LockLostException} so that code which stops on a lost lock stops here
 * too.
 */
public class NoLockHeldException extends LockLostException {

	public NoLockHeldException(String message) {
		super(message);
	}

}
