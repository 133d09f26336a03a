package io.github.distlock.core;

/**
 * A lock was lost while its holder still needed it: the ZooKeeper session ended, or the
 * connection was suspended and the policy counts that as lost. Another holder may have
 * run at the same time; a locked method that returns after its lock was lost reaches its
 * caller as this exception, its result discarded.
 */
public class LockLostException extends DistributedLockException {

	public LockLostException(String message) {
		super(message);
	}

}
